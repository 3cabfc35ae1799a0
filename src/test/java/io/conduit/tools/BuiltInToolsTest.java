package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.ToolCall;
import io.conduit.agent.ToolOutcome;
import io.conduit.agent.ToolScope;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuiltInToolsTest {

    final InMemoryUserMemory memory = new InMemoryUserMemory();
    final ToolExecutor tools = ToolExecutorTest.executor(
            new CurrentTimeTool(Clock.fixed(Instant.parse("2026-11-22T10:15:30Z"), ZoneOffset.UTC)),
            new RememberTool(memory), new RecallTool(memory));

    ToolOutcome call(String user, String tool, String args) {
        return tools.call(new ToolCall("c", tool, args), new ToolScope("t", user, Map.of("user_id", user))).await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void currentTimeInAZone() {
        assertThat(call("ada", "get_current_time", "{}").content()).isEqualTo("2026-11-22T10:15:30Z (UTC)");
        assertThat(call("ada", "get_current_time", "{\"timezone\":\"Europe/Paris\"}").content()).isEqualTo("2026-11-22T11:15:30+01:00 (Europe/Paris)");
        ToolOutcome bad = call("ada", "get_current_time", "{\"timezone\":\"Mars/Olympus\"}");
        assertThat(bad.error()).isTrue();
        assertThat(bad.content()).contains("unknown time zone Mars/Olympus");
    }

    @Test
    void rememberAndRecallAreScopedToTheRunsUser() {
        assertThat(call("ada", "remember", "{\"key\":\"city\",\"value\":\"Lyon\",\"user_id\":\"bob\"}").content()).isEqualTo("remembered city");
        assertThat(call("ada", "recall", "{\"key\":\"city\"}").content()).isEqualTo("Lyon");
        // the model named bob, but the memory went to the run's user
        assertThat(call("bob", "recall", "{\"key\":\"city\"}").content()).isEmpty();
        assertThat(tools.specs()).extracting(s -> s.name()).containsExactlyInAnyOrder("get_current_time", "remember", "recall");
        assertThat(tools.specs()).allSatisfy(s -> assertThat(s.parametersSchema()).doesNotContain("user_id"));
        assertThat(List.of(call("ada", "remember", "{\"key\":\"\",\"value\":\"x\"}").error())).containsExactly(true);
    }
}
