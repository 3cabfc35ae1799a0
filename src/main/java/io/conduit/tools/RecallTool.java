package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.UserMemory;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/** {@code recall}: what was remembered about the run's user (injected, never the model's choice) under a key. */
@ApplicationScoped
public class RecallTool implements Tool {

    private final UserMemory memory;

    public RecallTool(UserMemory memory) {
        this.memory = memory;
    }

    @Override
    public String name() {
        return "recall";
    }

    @Override
    public String description() {
        return "Recall a fact remembered about the user, by key. Returns nothing when there is none.";
    }

    @Override
    public String parametersSchema() {
        return """
                {"type":"object","properties":{"key":{"type":"string","minLength":1,"maxLength":100},"user_id":{"type":"string"}},\
                "required":["key","user_id"],"additionalProperties":false}""";
    }

    @Override
    public Set<String> injected() {
        return Set.of("user_id");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        // empty when nothing is remembered: the agent's verifier reads an empty result as "returned nothing" and re-plans
        return memory.get(arguments.get("user_id").asText(), arguments.get("key").asText()).map(v -> v.orElse(""));
    }
}
