package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.ToolScope;
import io.conduit.agent.UserMemory;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/** {@code remember}: keeps a fact about the user for later conversations. The user is the run's, never the model's pick. */
@ApplicationScoped
public class RememberTool implements Tool {

    private final UserMemory memory;

    public RememberTool(UserMemory memory) {
        this.memory = memory;
    }

    @Override
    public String name() {
        return "remember";
    }

    @Override
    public String description() {
        return "Remember a fact about the user (a preference, their city, a goal) for later conversations.";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\",\"minLength\":1},\"value\":{\"type\":\"string\"},"
                + "\"user_id\":{\"type\":\"string\"}},\"required\":[\"key\",\"value\",\"user_id\"],\"additionalProperties\":false}";
    }

    @Override
    public Set<String> injected() {
        return Set.of("user_id");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String key = arguments.get("key").asText();
        return memory.put(arguments.get("user_id").asText(), key, arguments.get("value").asText()).map(v -> "remembered " + key);
    }
}
