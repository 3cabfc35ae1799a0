package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.UserMemory;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * {@code remember}: keeps a fact about the user for later conversations. The user is the run's (injected), never the
 * model's choice, so a prompt cannot make it write another user's memory.
 */
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
        return "Remember a fact about the user (a preference, their programme, a goal) for later conversations, "
                + "under a short key; remembering under a key again replaces the fact.";
    }

    @Override
    public String parametersSchema() {
        // sizes bounded: memories are loaded into every later prompt of the user
        return """
                {"type":"object","properties":{\
                "key":{"type":"string","minLength":1,"maxLength":100,"description":"e.g. preferred_language"},\
                "value":{"type":"string","maxLength":2000},\
                "user_id":{"type":"string"}},\
                "required":["key","value","user_id"],"additionalProperties":false}""";
    }

    @Override
    public Set<String> injected() {
        return Set.of("user_id");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String key = arguments.get("key").asText();
        return memory.put(arguments.get("user_id").asText(), key, arguments.get("value").asText())
                .map(done -> "remembered " + key);
    }
}
