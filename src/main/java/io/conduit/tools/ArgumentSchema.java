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
 * The JSON schema of one tool's arguments, compiled once when the tool is registered. A schema that is not valid
 * JSON Schema, or not an object schema, is refused then (a start-up error), not when the model first calls the tool.
 */
final class ArgumentSchema {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    // the meta-schema ships inside the validator: nothing is fetched over the network
    private static final JsonSchema META = FACTORY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));

    private final JsonSchema schema;
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
        List<String> problems = messages(META.validate(tree));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("tool " + toolName + ": its argument schema is not valid JSON Schema: " + String.join("; ", problems));
        }
        try {
            this.schema = FACTORY.getSchema(tree);
        } catch (JsonSchemaException e) {
            throw new IllegalStateException("tool " + toolName + ": its argument schema cannot be used: " + e.getMessage(), e);
        }
        Set<String> names = new HashSet<>();
        object.path("required").forEach(n -> names.add(n.asText()));
        this.required = Set.copyOf(names);
        this.forModel = withoutInjected(object.deepCopy(), injected).toString();
    }

    /** What is wrong with the arguments, each naming the property and why; empty when they fit. */
    List<String> problems(JsonNode arguments) {
        return messages(schema.validate(arguments));
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
