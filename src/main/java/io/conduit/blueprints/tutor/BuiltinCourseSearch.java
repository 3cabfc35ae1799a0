package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.tools.Tool;
import io.smallrye.mutiny.Uni;
import java.util.Set;

/** rag_search over the built-in demo course ({@code retrieval.source=builtin}): same schema and answer as the HTTP one. */
final class BuiltinCourseSearch implements Tool {

    private final BuiltinCourse course;
    private final int defaultTopK;

    BuiltinCourseSearch(BuiltinCourse course, int defaultTopK) {
        this.course = course;
        this.defaultTopK = defaultTopK;
    }

    @Override
    public String name() {
        return TutorTools.RAG_SEARCH;
    }

    @Override
    public String description() {
        return TutorTools.RAG_DESCRIPTION;
    }

    @Override
    public String parametersSchema() {
        return TutorTools.RAG_SCHEMA;
    }

    @Override
    public Set<String> injected() {
        return Set.of("subject");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        int topK = arguments.path("top_k").canConvertToInt() ? arguments.get("top_k").asInt() : defaultTopK;
        return Uni.createFrom().item(() -> course.search(arguments.path("query").asText(), arguments.path("subject").asText(), topK));
    }
}
