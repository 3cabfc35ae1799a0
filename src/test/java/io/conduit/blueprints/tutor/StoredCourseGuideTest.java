package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.tools.Redactor;
import io.conduit.tools.ToolExecutor;
import io.conduit.tools.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** get_guide from the guides on file: the thread's subject's, never the one the model names. */
class StoredCourseGuideTest {

    private final CourseGuides guides = new InMemoryCourseGuides();
    private final ToolExecutor tools = new ToolExecutor(new ToolRegistry(List.of(new StoredCourseGuide(guides))),
            new ToolExecutor.Policy(Duration.ofSeconds(10), 1, Duration.ofMillis(10), Duration.ofMillis(10), 4, 16_000),
            new Redactor(List.of(), List.of()));

    private ToolOutcome call(String args, String subject) {
        return tools.call(new ToolCall("c-1", TutorTools.GET_GUIDE, args), new ToolScope("t-1", "ada", Map.of("subject", subject)))
                .await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void theGuideOfTheThreadsSubjectIsRead() {
        guides.put("biology", "Start from what the student can observe.").await().atMost(Duration.ofSeconds(10));
        guides.put("chemistry", "Balance first.").await().atMost(Duration.ofSeconds(10));

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
