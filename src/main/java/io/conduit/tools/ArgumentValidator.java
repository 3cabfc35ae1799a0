package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Checks a tool call's arguments against the tool's JSON schema before it runs. */
final class ArgumentValidator {

    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();

    /** The problems found, each naming the property and why; empty when the arguments fit. */
    List<String> problems(Tool tool, JsonNode arguments) {
        JsonSchema schema = schemas.computeIfAbsent(tool.name(), n -> factory.getSchema(tool.parametersSchema()));
        Set<ValidationMessage> messages = schema.validate(arguments);
        return messages.stream().map(ValidationMessage::getMessage).sorted().toList();
    }
}
