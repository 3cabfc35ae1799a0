package io.conduit.blueprints.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;

/** {@code add_memory}: keeps a fact about the run's user (injected) for later threads. */
final class AddMemoryTool extends UserMemoryTool {

    static final String NAME = "add_memory";

    AddMemoryTool(AssistantMemory memory) {
        // bounded: memories go into later prompts of the user
        super(memory, NAME, """
                "content":{"type":"string","minLength":1,"maxLength":2000},\
                "key":{"type":"string","minLength":1,"maxLength":100,"description":"e.g. favourite_colour"}""", "content");
    }

    @Override
    public String description() {
        return "Remember a fact about the user for later conversations (a preference, a goal, their situation). "
                + "Give a short key to replace an earlier fact of the same kind.";
    }

    @Override
    Uni<String> execute(String userId, JsonNode arguments) {
        String key = arguments.hasNonNull("key") ? arguments.get("key").asText() : null;
        return memory.add(userId, key, arguments.get("content").asText()).map(m -> "remembered " + m.key() + ": " + m.text());
    }
}
