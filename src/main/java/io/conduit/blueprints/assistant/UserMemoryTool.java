package io.conduit.blueprints.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.tools.Tool;
import io.smallrye.mutiny.Uni;
import java.util.Set;

/**
 * A tool over the memories of the run's user: {@code user_id} is injected, never the model's choice, so a model
 * cannot read or write another user's memories. A tool names its own arguments; the user and the schema's frame are
 * this class's.
 */
abstract class UserMemoryTool implements Tool {

    private static final String USER_ID = "user_id";

    final AssistantMemory memory;
    private final String name;
    private final String schema;

    /**
     * @param properties the JSON schema's properties the model gives (their text, without braces)
     * @param required   the one of them the model must give
     */
    UserMemoryTool(AssistantMemory memory, String name, String properties, String required) {
        this.memory = memory;
        this.name = name;
        this.schema = "{\"type\":\"object\",\"properties\":{" + properties + ",\"" + USER_ID + "\":{\"type\":\"string\"}},"
                + "\"required\":[\"" + required + "\",\"" + USER_ID + "\"],\"additionalProperties\":false}";
    }

    /** What the tool does for {@code userId}, with the model's arguments. */
    abstract Uni<String> execute(String userId, JsonNode arguments);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String parametersSchema() {
        return schema;
    }

    @Override
    public final Set<String> injected() {
        return Set.of(USER_ID);
    }

    @Override
    public final Uni<String> execute(JsonNode arguments, ToolScope scope) {
        return execute(arguments.get(USER_ID).asText(), arguments);
    }
}
