package io.conduit.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaException;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.conduit.kernel.JsonCodec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JSON schema of one tool's arguments. Registering it checks its shape (JSON, an object schema), which is cheap;
 * {@link #checkAgainstMetaSchema()} checks it against the 2020-12 meta-schema and compiles it, which is not (a sixth of
 * a start-up, mostly loading the meta-schema), so the registry asks for it only where it is needed (see
 * {@link ToolRegistry}). Otherwise the schema is compiled when the model first calls the tool.
 */
final class ArgumentSchema {

    /** The validator, loaded at the first compile, not when the first tool is registered. */
    private static final class Factory {
        static final JsonSchemaFactory V202012 = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    }

    /** Built on first use: the meta-schema ships inside the validator, nothing is fetched over the network. */
    private static final class Meta {
        static final JsonSchema SCHEMA = Factory.V202012.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    }

    private final String toolName;
    private final ObjectNode tree;
    private volatile JsonSchema schema;
    private final String forModel;
    private final Set<String> required;

    ArgumentSchema(String toolName, String schemaText, Set<String> injected) {
        JsonNode tree;
        try {
            tree = JsonCodec.MAPPER.readTree(schemaText == null ? "" : schemaText);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("tool " + toolName + ": its argument schema is not JSON: " + e.getOriginalMessage());
        }
        if (!(tree instanceof ObjectNode object) || !"object".equals(object.path("type").asText())) {
            throw new IllegalStateException("tool " + toolName + ": its argument schema must be an object schema ({\"type\":\"object\",...})");
        }
        this.toolName = toolName;
        this.tree = object;
        Set<String> names = new HashSet<>();
        object.path("required").forEach(n -> names.add(n.asText()));
        this.required = Set.copyOf(names);
        this.forModel = withoutInjected(object.deepCopy(), injected).toString();
    }

    /** Refuses a schema that is not valid JSON Schema 2020-12 or that the validator cannot compile. Returns this. */
    ArgumentSchema checkAgainstMetaSchema() {
        List<String> problems = messages(Meta.SCHEMA.validate(tree));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("tool " + toolName + ": its argument schema is not valid JSON Schema: " + String.join("; ", problems));
        }
        compiled();
        return this;
    }

    /** What is wrong with the arguments, each naming the property and why; empty when they fit. */
    List<String> problems(JsonNode arguments) {
        return messages(compiled().validate(arguments));
    }

    private JsonSchema compiled() {
        JsonSchema compiled = schema;
        if (compiled == null) {
            // two first calls at once may both compile it: harmless, the result is the same
            try {
                compiled = Factory.V202012.getSchema(tree);
            } catch (JsonSchemaException e) {
                throw new IllegalStateException("tool " + toolName + ": its argument schema cannot be used: " + e.getMessage(), e);
            }
            schema = compiled;
        }
        return compiled;
    }

    /** The schema the model sees: the injected arguments are neither shown nor asked for. */
    String forModel() {
        return forModel;
    }

    boolean requires(String argument) {
        return required.contains(argument);
    }

    private static List<String> messages(Set<ValidationMessage> messages) {
        return messages.stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    private static ObjectNode withoutInjected(ObjectNode schema, Set<String> injected) {
        if (schema.get("properties") instanceof ObjectNode properties) {
            injected.forEach(properties::remove);
        }
        if (schema.get("required") instanceof ArrayNode required) {
            for (int i = required.size() - 1; i >= 0; i--) {
                if (injected.contains(required.get(i).asText())) {
                    required.remove(i);
                }
            }
            if (required.isEmpty()) {
                schema.remove("required");
            }
        }
        return schema;
    }
}
