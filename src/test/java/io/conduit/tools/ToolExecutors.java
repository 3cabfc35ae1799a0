package io.conduit.tools;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Executors built directly, as the service builds its own, with a quick retry policy for tests. */
final class ToolExecutors {

    static final ToolScope SCOPE = new ToolScope("t1", "ada", Map.of("course", "linear-algebra"));
    static final Duration WAIT = Duration.ofSeconds(20);
    /** 5 s per attempt, 3 tries 1-5 ms apart, 64 at once, output up to 16000 characters. */
    static final ToolExecutor.Policy POLICY = new ToolExecutor.Policy(Duration.ofSeconds(5), 3, Duration.ofMillis(1), Duration.ofMillis(5), 64, 16000);

    private ToolExecutors() {
    }

    static ToolExecutor of(Tool... tools) {
        return of(POLICY, new Redactor(List.of(), List.of()), tools);
    }

    static ToolExecutor of(ToolExecutor.Policy policy, Redactor redactor, Tool... tools) {
        return new ToolExecutor(new ToolRegistry(List.of(tools)), policy, redactor);
    }

    static ToolOutcome call(ToolExecutor executor, String tool, String arguments) {
        return call(executor, tool, arguments, SCOPE);
    }

    static ToolOutcome call(ToolExecutor executor, String tool, String arguments, ToolScope scope) {
        return executor.call(new ToolCall("call-1", tool, arguments), scope).await().atMost(WAIT);
    }
}
