package io.conduit.persistence;

import io.conduit.blueprints.tutor.CourseGuides;
import io.conduit.checkpoint.StorableText;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.Optional;

/** The tutor's course guides in PostgreSQL: {@code conduit_course_guides}, made by the tutor's migration (db/blueprints/tutor). */
public final class PostgresCourseGuides implements CourseGuides {

    private final SqlClient client;

    public PostgresCourseGuides(SqlClient client) {
        this.client = client;
    }

    @Override
    public Uni<Optional<String>> guide(String subject) {
        if (StorableText.problem(subject) != null) {
            // Postgres would fail the query; no such subject can have been filed
            return Uni.createFrom().item(Optional.empty());
        }
        return client.preparedQuery("SELECT guide FROM conduit_course_guides WHERE subject = $1").execute(Tuple.of(subject))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
    }

    @Override
    public Uni<Void> put(String subject, String guide) {
        String problem = CourseGuides.problem(subject, guide);
        if (problem != null) {
            return Uni.createFrom().failure(new IllegalArgumentException(problem));
        }
        return client.preparedQuery("""
                        INSERT INTO conduit_course_guides (subject, guide) VALUES ($1, $2)
                        ON CONFLICT (subject) DO UPDATE SET guide = EXCLUDED.guide, updated_at = now()""")
                .execute(Tuple.of(subject, guide)).replaceWithVoid();
    }
}
