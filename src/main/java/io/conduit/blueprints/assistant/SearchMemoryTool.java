package io.conduit.blueprints.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;

/** {@code search_memory}: the run's user's memories (the user injected, never the model's choice) that match a query. */
final class SearchMemoryTool extends UserMemoryTool {

    static final String NAME = "search_memory";

    SearchMemoryTool(AssistantMemory memory) {
        super(memory, NAME, """
                "query":{"type":"string","minLength":1,"maxLength":500,"description":"words to look for"},\
                "limit":{"type":"integer","minimum":1,"maximum":20}""", "query");
    }

    @Override
    public String description() {
        return "Search what you remember about the user (facts, preferences, goals from earlier conversations).";
    }

    @Override
    Uni<String> execute(String userId, JsonNode arguments) {
        int limit = arguments.path("limit").asInt(5);
        return memory.search(userId, arguments.get("query").asText(), limit).map(found -> {
            if (found.isEmpty()) {
                return "no memories match";
            }
            StringBuilder sb = new StringBuilder();
            found.forEach(m -> sb.append(m.key()).append(": ").append(m.text()).append('\n'));
            return sb.toString().strip();
        });
    }
}
