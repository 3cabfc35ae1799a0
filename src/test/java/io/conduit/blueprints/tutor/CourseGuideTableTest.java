package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.persistence.TestDatabase;
import io.conduit.tools.Redactor;
import io.conduit.tools.ToolExecutor;
import io.conduit.tools.ToolRegistry;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** get_guide from PostgreSQL (the service's own migration makes the table): the thread's subject, never the model's. */
class CourseGuideTableTest {

    private final Pool pool = TestDatabase.schemaPool("tutor_guides");
    private final ToolExecutor tools = new ToolExecutor(new ToolRegistry(List.of(new CourseGuideTable(pool))),
            new ToolExecutor.Policy(Duration.ofSeconds(10), 1, Duration.ofMillis(10), Duration.ofMillis(10), 4, 16_000),
            new Redactor(List.of(), List.of()));

    private ToolOutcome call(String args, String subject) {
        return tools.call(new ToolCall("c-1", TutorTools.GET_GUIDE, args), new ToolScope("t-1", "ada", Map.of("subject", subject)))
                .await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void theGuideOfTheThreadsSubjectIsRead() {
        pool.preparedQuery("INSERT INTO conduit_course_guides (subject, guide) VALUES ($1, $2) ON CONFLICT (subject) DO UPDATE SET guide = EXCLUDED.guide")
                .executeBatch(List.of(Tuple.of("biology", "Start from what the student can observe."), Tuple.of("chemistry", "Balance first.")))
                .await().atMost(Duration.ofSeconds(10));

        ToolOutcome o = call("{\"subject\": \"chemistry\"}", "biology");

        assertThat(o.error()).isFalse();
        assertThat(o.content()).isEqualTo("Start from what the student can observe.");
        assertThat(tools.specs()).singleElement().satisfies(s -> assertThat(s.parametersSchema()).doesNotContain("subject"));
    }

    @Test
    void aSubjectWithoutAGuideIsSaidSo() {
        assertThat(call("{}", "astronomy").content()).isEqualTo("No teaching guide is on file for astronomy.");
    }
}
