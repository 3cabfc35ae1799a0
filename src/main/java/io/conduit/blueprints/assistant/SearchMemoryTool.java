package io.conduit.blueprints.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.tools.Tool;
import io.smallrye.mutiny.Uni;
import java.util.Set;

/** {@code search_memory}: the run's user's memories (the user injected, never the model's choice) that match a query. */
final class SearchMemoryTool implements Tool {

    static final String NAME = "search_memory";

    private final AssistantMemory memory;

    SearchMemoryTool(AssistantMemory memory) {
        this.memory = memory;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Search what you remember about the user (facts, preferences, goals from earlier conversations).";
    }

    @Override
    public String parametersSchema() {
        return """
                {"type":"object","properties":{\
                "query":{"type":"string","minLength":1,"maxLength":500,"description":"words to look for"},\
                "limit":{"type":"integer","minimum":1,"maximum":20},\
                "user_id":{"type":"string"}},\
                "required":["query","user_id"],"additionalProperties":false}""";
    }

    @Override
    public Set<String> injected() {
        return Set.of("user_id");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        int limit = arguments.path("limit").asInt(5);
        return memory.search(arguments.get("user_id").asText(), arguments.get("query").asText(), limit).map(found -> {
            if (found.isEmpty()) {
                return "no memories match";
            }
            StringBuilder sb = new StringBuilder();
            found.forEach(m -> sb.append(m.key()).append(": ").append(m.text()).append('\n'));
            return sb.toString().strip();
        });
    }
}
