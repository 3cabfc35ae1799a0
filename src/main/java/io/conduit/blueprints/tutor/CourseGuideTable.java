package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/** get_guide read from PostgreSQL: the row of {@code conduit_course_guides} for the thread's subject. */
final class CourseGuideTable extends GuideTool {

    private final SqlClient client;

    CourseGuideTable(SqlClient client) {
        this.client = client;
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String subject = arguments.path("subject").asText();
        return client.preparedQuery("SELECT guide FROM conduit_course_guides WHERE subject = $1").execute(Tuple.of(subject))
                .map(rows -> rows.size() == 0 ? "No teaching guide is on file for " + subject + "."
                        : rows.iterator().next().getString(0));
    }
}
