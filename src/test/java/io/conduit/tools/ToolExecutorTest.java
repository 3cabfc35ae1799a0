package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.ToolCall;
import io.conduit.agent.ToolOutcome;
import io.conduit.agent.ToolScope;
import io.conduit.agent.ToolSpec;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class ToolExecutorTest {

    static final ToolScope SCOPE = new ToolScope("t1", "ada", Map.of("user_id", "ada", "thread_id", "t1"));
    static final Duration WAIT = Duration.ofSeconds(10);

    /** A tool made of a function, for tests. */
    record FnTool(String name, String parametersSchema, boolean blocking, Duration timeout, Set<String> injected,
                  BiFunction<JsonNode, ToolScope, Uni<String>> fn) implements Tool {
        FnTool(String name, BiFunction<JsonNode, ToolScope, Uni<String>> fn) {
            this(name, "{\"type\":\"object\"}", false, null, Set.of(), fn);
        }

        @Override
        public String description() {
            return "test tool " + name;
        }

        @Override
        public Uni<String> execute(JsonNode arguments, ToolScope scope) {
            return fn.apply(arguments, scope);
        }
    }

    static ToolExecutor executor(Tool... tools) {
        return executor(new Redactor(List.of(), List.of()), tools);
    }

    static ToolExecutor executor(Redactor redactor, Tool... tools) {
        return new ToolExecutor(new ToolRegistry(List.of(tools)),
                new ToolExecutor.Policy(Duration.ofSeconds(5), 3, Duration.ofMillis(1), Duration.ofMillis(5)), redactor);
    }

    static ToolOutcome call(ToolExecutor ex, String tool, String args) {
        return ex.call(new ToolCall("c1", tool, args), SCOPE).await().atMost(WAIT);
    }

    @Test
    void callsRunConcurrently() {
        // each call completes only once all three have started: they can only finish if they were in flight together
        AtomicInteger started = new AtomicInteger();
        CompletableFuture<String> allStarted = new CompletableFuture<>();
        ToolExecutor ex = executor(new FnTool("wait", (a, s) -> Uni.createFrom().completionStage(() -> {
            if (started.incrementAndGet() == 3) {
                allStarted.complete("all in");
            }
            return allStarted;
        })));
        List<ToolOutcome> outcomes = Uni.join().all(
                ex.call(new ToolCall("a", "wait", "{}"), SCOPE),
                ex.call(new ToolCall("b", "wait", "{}"), SCOPE),
                ex.call(new ToolCall("c", "wait", "{}"), SCOPE)).andFailFast().await().atMost(WAIT);
        assertThat(outcomes).extracting(ToolOutcome::content).containsOnly("all in");
    }

    @Test
    void aToolThatNeverAnswersTimesOutIntoAnErrorResult() {
        ToolExecutor ex = executor(new FnTool("stuck", "{\"type\":\"object\"}", false, Duration.ofMillis(50), Set.of(),
                (a, s) -> Uni.createFrom().nothing()));
        ToolOutcome o = call(ex, "stuck", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).contains("stuck did not answer within");
        assertThat(o.attempts()).isEqualTo(1);
    }

    @Test
    void retryableFailuresAreTriedAgainWithBackoffOthersAreNot() {
        AtomicInteger flaky = new AtomicInteger();
        AtomicInteger broken = new AtomicInteger();
        ToolExecutor ex = executor(
                new FnTool("flaky", (a, s) -> flaky.incrementAndGet() < 3
                        ? Uni.createFrom().failure(new RetryableToolException("busy")) : Uni.createFrom().item("ok")),
                new FnTool("broken", (a, s) -> {
                    broken.incrementAndGet();
                    return Uni.createFrom().failure(new IllegalStateException("bad input"));
                }));
        ToolOutcome ok = call(ex, "flaky", "{}");
        assertThat(ok.error()).isFalse();
        assertThat(ok.content()).isEqualTo("ok");
        assertThat(ok.attempts()).isEqualTo(3);
        ToolOutcome failed = call(ex, "broken", "{}");
        assertThat(failed.error()).isTrue();
        assertThat(failed.content()).isEqualTo("broken failed: bad input");
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(broken.get()).isEqualTo(1);
    }

    @Test
    void aToolThatThrowsGivesAnErrorResult() {
        ToolExecutor ex = executor(new FnTool("throws", (a, s) -> {
            throw new IllegalArgumentException("kaboom");
        }));
        ToolOutcome o = call(ex, "throws", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).contains("kaboom");
    }

    @Test
    void secretsAndPatternsAreRedactedFromResultsAndErrors() {
        Redactor redactor = new Redactor(List.of("sk-[A-Za-z0-9]{8,}"), List.of("hunter2-token"));
        ToolExecutor ex = executor(redactor,
                new FnTool("leaky", (a, s) -> Uni.createFrom().item("key sk-abcdefgh1234 and hunter2-token")),
                new FnTool("leaky-error", (a, s) -> Uni.createFrom().failure(new IllegalStateException("auth hunter2-token refused"))));
        assertThat(call(ex, "leaky", "{}").content()).isEqualTo("key [REDACTED] and [REDACTED]");
        assertThat(call(ex, "leaky-error", "{}").content()).isEqualTo("leaky-error failed: auth [REDACTED] refused");
    }

    @Test
    void argumentsThatBreakTheSchemaNeverReachTheTool() {
        AtomicInteger runs = new AtomicInteger();
        String schema = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},\"days\":{\"type\":\"integer\"}},"
                + "\"required\":[\"city\"],\"additionalProperties\":false}";
        ToolExecutor ex = executor(new FnTool("weather", schema, false, null, Set.of(), (a, s) -> {
            runs.incrementAndGet();
            return Uni.createFrom().item("sunny in " + a.get("city").asText());
        }));
        assertThat(call(ex, "weather", "{}").content()).startsWith("invalid arguments for weather:").contains("city");
        assertThat(call(ex, "weather", "{\"city\":\"Lyon\",\"days\":\"two\"}").content()).contains("days").contains("integer");
        assertThat(call(ex, "weather", "{\"city\":\"Lyon\",\"extra\":1}").content()).contains("extra");
        assertThat(call(ex, "weather", "[1,2]").content()).isEqualTo("the arguments of weather must be a JSON object");
        assertThat(call(ex, "weather", "{not json").content()).isEqualTo("the arguments of weather are not valid JSON");
        assertThat(runs.get()).isZero();
        ToolOutcome ok = call(ex, "weather", "{\"city\":\"Lyon\",\"days\":2}");
        assertThat(ok.error()).isFalse();
        assertThat(ok.content()).isEqualTo("sunny in Lyon");
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void anUnknownToolIsAnErrorResultNamingTheTools() {
        ToolOutcome o = call(executor(new FnTool("one", (a, s) -> Uni.createFrom().item("1"))), "two", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).contains("no tool named two").contains("one");
    }

    @Test
    void injectedArgumentsComeFromTheRunNotTheModelAndAreHiddenFromIt() {
        String schema = "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"user_id\":{\"type\":\"string\"}},"
                + "\"required\":[\"key\",\"user_id\"],\"additionalProperties\":false}";
        ToolExecutor ex = executor(new FnTool("whoami", schema, false, null, Set.of("user_id"),
                (a, s) -> Uni.createFrom().item(a.get("user_id").asText())));
        assertThat(call(ex, "whoami", "{\"key\":\"k\",\"user_id\":\"mallory\"}").content()).isEqualTo("ada");
        assertThat(call(ex, "whoami", "{\"key\":\"k\"}").content()).isEqualTo("ada");
        ToolSpec spec = ex.specs().get(0);
        assertThat(spec.parametersSchema()).contains("key").doesNotContain("user_id");
    }

    @Test
    void aBlockingToolRunsOffTheEventLoop() throws Exception {
        AtomicInteger onEventLoop = new AtomicInteger(-1);
        ToolExecutor ex = executor(new FnTool("blocking", "{\"type\":\"object\"}", true, null, Set.of(), (a, s) -> Uni.createFrom().item(() -> {
            onEventLoop.set(Context.isOnEventLoopThread() ? 1 : 0);
            return Thread.currentThread().getName();
        })));
        Vertx vertx = Vertx.vertx();
        try {
            CompletableFuture<ToolOutcome> result = new CompletableFuture<>();
            CompletableFuture<Boolean> callerOnLoop = new CompletableFuture<>();
            vertx.runOnContext(v -> {
                callerOnLoop.complete(Context.isOnEventLoopThread());
                ex.call(new ToolCall("c", "blocking", "{}"), SCOPE).subscribe().with(result::complete, result::completeExceptionally);
            });
            ToolOutcome o = result.get(10, TimeUnit.SECONDS);
            assertThat(callerOnLoop.get()).isTrue();
            assertThat(o.error()).isFalse();
            assertThat(onEventLoop.get()).isZero();
        } finally {
            vertx.close();
        }
    }
}
