package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.blueprints.tutor.CourseGuides;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The tutor's course guides as the service gets them: in Postgres under %test, in the table its migration made. */
@QuarkusTest
class CourseGuidesWiringTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    CourseGuides guides;

    @Test
    void theGuidesAreInPostgresAndTheirTableExists() {
        assertThat(guides).isInstanceOf(PostgresCourseGuides.class);
        String subject = "wiring-" + UUID.randomUUID();
        guides.put(subject, "Observe first.").await().atMost(WAIT);

        assertThat(guides.guide(subject).await().atMost(WAIT)).contains("Observe first.");
        assertThat(TestDatabase.pool().preparedQuery("SELECT guide FROM conduit_course_guides WHERE subject = $1")
                .execute(Tuple.of(subject)).await().atMost(WAIT).iterator().next().getString(0))
                .isEqualTo("Observe first.");
    }
}
