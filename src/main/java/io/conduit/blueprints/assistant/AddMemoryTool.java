package io.conduit.blueprints.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.tools.Tool;
import io.smallrye.mutiny.Uni;
import java.util.Set;

/** {@code add_memory}: keeps a fact about the run's user (injected) for later threads. */
final class AddMemoryTool implements Tool {

    static final String NAME = "add_memory";

    private final AssistantMemory memory;

    AddMemoryTool(AssistantMemory memory) {
        this.memory = memory;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Remember a fact about the user for later conversations (a preference, a goal, their situation). "
                + "Give a short key to replace an earlier fact of the same kind.";
    }

    @Override
    public String parametersSchema() {
        // bounded: memories go into later prompts of the user
        return """
                {"type":"object","properties":{\
                "content":{"type":"string","minLength":1,"maxLength":2000},\
                "key":{"type":"string","minLength":1,"maxLength":100,"description":"e.g. favourite_colour"},\
                "user_id":{"type":"string"}},\
                "required":["content","user_id"],"additionalProperties":false}""";
    }

    @Override
    public Set<String> injected() {
        return Set.of("user_id");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String key = arguments.hasNonNull("key") ? arguments.get("key").asText() : null;
        return memory.add(arguments.get("user_id").asText(), key, arguments.get("content").asText())
                .map(m -> "remembered " + m.key() + ": " + m.text());
    }
}
