package io.conduit.tools;

import io.conduit.agent.port.InMemoryUserMemory;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.ToolSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** get_current_time, remember and recall, through the executor as the agent calls them. */
class BuiltInToolsTest {

    final InMemoryUserMemory memory = new InMemoryUserMemory();
    final ToolExecutor tools = ToolExecutors.of(
            new CurrentTimeTool(Clock.fixed(Instant.parse("2026-11-22T10:15:30Z"), ZoneOffset.UTC)),
            new RememberTool(memory), new RecallTool(memory));

    ToolOutcome call(String user, String tool, String args) {
        return ToolExecutors.call(tools, tool, args, new ToolScope("thread-" + user, user, Map.of()));
    }

    @Test
    void theCurrentTimeInUtcOrANamedZone() {
        assertThat(call("ada", "get_current_time", "{}").content()).isEqualTo("2026-11-22T10:15:30Z (Sunday, UTC)");
        assertThat(call("ada", "get_current_time", "{\"timezone\":\"Europe/Paris\"}").content())
                .isEqualTo("2026-11-22T11:15:30+01:00 (Sunday, Europe/Paris)");
        assertThat(call("ada", "get_current_time", "{\"timezone\":\"Pacific/Kiritimati\"}").content())
                .isEqualTo("2026-11-23T00:15:30+14:00 (Monday, Pacific/Kiritimati)");
    }

    @Test
    void anUnknownTimeZoneIsAnErrorOutcome() {
        ToolOutcome bad = call("ada", "get_current_time", "{\"timezone\":\"Mars/Olympus\"}");
        assertThat(bad.error()).isTrue();
        assertThat(bad.attempts()).isEqualTo(1);
        assertThat(bad.content()).isEqualTo("get_current_time failed: unknown time zone Mars/Olympus (use an IANA name such as Europe/Paris)");
        assertThat(call("ada", "get_current_time", "{\"timezone\":7}").content()).startsWith("invalid arguments for get_current_time: $.timezone");
    }

    @Test
    void rememberAndRecallAreScopedToTheRunsUserWhateverTheModelSends() {
        assertThat(call("ada", "remember", "{\"key\":\"city\",\"value\":\"Lyon\",\"user_id\":\"bob\"}").content()).isEqualTo("remembered city");
        assertThat(call("ada", "recall", "{\"key\":\"city\"}").content()).isEqualTo("Lyon");
        // the model named bob, but the memory went to the run's user, and bob's recall cannot read ada's
        assertThat(memory.all("bob").await().indefinitely()).isEmpty();
        ToolOutcome bobs = call("bob", "recall", "{\"key\":\"city\",\"user_id\":\"ada\"}");
        assertThat(bobs.error()).isFalse();
        assertThat(bobs.content()).isEmpty();
        assertThat(memory.all("ada").await().indefinitely()).isEqualTo(Map.of("city", "Lyon"));
    }

    @Test
    void rememberingAgainReplacesTheFact() {
        call("ada", "remember", "{\"key\":\"goal\",\"value\":\"pass calculus\"}");
        call("ada", "remember", "{\"key\":\"goal\",\"value\":\"pass linear algebra\"}");
        assertThat(call("ada", "recall", "{\"key\":\"goal\"}").content()).isEqualTo("pass linear algebra");
    }

    @Test
    void theModelSeesNeitherTheUserArgumentNorAWayToSetIt() {
        assertThat(tools.specs()).extracting(ToolSpec::name).containsExactly("get_current_time", "remember", "recall");
        assertThat(tools.specs()).allSatisfy(s -> assertThat(s.parametersSchema()).doesNotContain("user_id"));
        ToolOutcome emptyKey = call("ada", "remember", "{\"key\":\"\",\"value\":\"x\"}");
        assertThat(emptyKey.error()).isTrue();
        assertThat(emptyKey.content()).contains("$.key");
        assertThat(memory.all("ada").await().indefinitely()).isEmpty();
    }
}
