package io.conduit.tools;

import static io.conduit.tools.ToolExecutors.SCOPE;
import static io.conduit.tools.ToolExecutors.WAIT;
import static io.conduit.tools.ToolExecutors.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.ToolSpec;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ToolExecutorTest {

    @Test
    void callsRunAtTheSameTime() {
        // each call ends only once all three have started: they can only finish if they were in flight together
        AtomicInteger started = new AtomicInteger();
        CompletableFuture<String> allStarted = new CompletableFuture<>();
        ToolExecutor ex = ToolExecutors.of(new FnTool("wait", (a, s) -> Uni.createFrom().completionStage(() -> {
            if (started.incrementAndGet() == 3) {
                allStarted.complete("all in");
            }
            return allStarted;
        })));
        List<ToolOutcome> outcomes = Uni.join().all(
                ex.call(new ToolCall("a", "wait", "{}"), SCOPE),
                ex.call(new ToolCall("b", "wait", "{}"), SCOPE),
                ex.call(new ToolCall("c", "wait", "{}"), SCOPE)).andFailFast().await().atMost(WAIT);
        assertThat(outcomes).extracting(ToolOutcome::content).containsExactly("all in", "all in", "all in");
    }

    @Test
    void blockingToolsRunAtTheSameTimeToo() {
        // blocking tools that block on a latch only all three can open: three worker threads at once
        AtomicInteger started = new AtomicInteger();
        CompletableFuture<String> allStarted = new CompletableFuture<>();
        ToolExecutor ex = ToolExecutors.of(new FnTool("block", (a, s) -> Uni.createFrom().item(() -> {
            if (started.incrementAndGet() == 3) {
                allStarted.complete("all in");
            }
            // bounded, so that were they run one after the other the test fails instead of hanging
            return allStarted.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        })).blockingTool());
        List<ToolOutcome> outcomes = Uni.join().all(
                ex.call(new ToolCall("a", "block", "{}"), SCOPE),
                ex.call(new ToolCall("b", "block", "{}"), SCOPE),
                ex.call(new ToolCall("c", "block", "{}"), SCOPE)).andFailFast().await().atMost(WAIT);
        assertThat(outcomes).extracting(ToolOutcome::content).containsExactly("all in", "all in", "all in");
    }

    @Test
    void callsBeyondTheConcurrencyLimitWaitTheirTurn() {
        List<CompletableFuture<String>> running = new CopyOnWriteArrayList<>();
        ToolExecutor ex = ToolExecutors.of(withMaxConcurrent(2), new Redactor(List.of(), List.of()),
                new FnTool("slow", (a, s) -> {
                    CompletableFuture<String> f = new CompletableFuture<>();
                    running.add(f);
                    return Uni.createFrom().completionStage(f);
                }));
        List<CompletableFuture<ToolOutcome>> outcomes = List.of(start(ex, "a"), start(ex, "b"), start(ex, "c"), start(ex, "d"));
        Cancellable waitingThenCancelled = ex.call(new ToolCall("e", "slow", "{}"), SCOPE).subscribe().with(o -> { });
        assertThat(running).as("two run, three wait").hasSize(2);
        waitingThenCancelled.cancel();

        running.get(0).complete("first");
        assertThat(running).as("the first to end lets the next in line start").hasSize(3);
        running.get(1).complete("second");
        running.get(2).complete("third");
        assertThat(running).hasSize(4);
        running.get(3).complete("fourth");

        assertThat(outcomes).extracting(f -> f.join().content()).containsExactly("first", "second", "third", "fourth");
        assertThat(running).as("the cancelled call never started").hasSize(4);
        // every place was given back: two new calls start at once
        start(ex, "f");
        start(ex, "g");
        assertThat(running).hasSize(6);
    }

    @Test
    void aToolThatNeverAnswersTimesOutIntoAnErrorOutcome() {
        ToolExecutor ex = ToolExecutors.of(new FnTool("stuck", (a, s) -> Uni.createFrom().nothing()).withTimeout(Duration.ofMillis(50)));
        ToolOutcome o = call(ex, "stuck", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).isEqualTo("stuck did not answer within 50ms");
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.timedOut()).isTrue();
    }

    @Test
    void anHttpClientsTimeoutIsATimeoutTooAndOtherFailuresAreNot() {
        ToolExecutor ex = ToolExecutors.of(new FnTool("slow", (a, s) -> Uni.createFrom().failure(
                new java.util.concurrent.CompletionException(new java.net.http.HttpTimeoutException("request timed out")))),
                new FnTool("broken", (a, s) -> Uni.createFrom().failure(new IllegalStateException("bad input"))));
        ToolOutcome slow = call(ex, "slow", "{}");
        assertThat(slow.error()).isTrue();
        assertThat(slow.timedOut()).isTrue();
        ToolOutcome broken = call(ex, "broken", "{}");
        assertThat(broken.error()).isTrue();
        assertThat(broken.timedOut()).isFalse();
        assertThat(call(ex, "nothing-such", "{}").timedOut()).isFalse();
    }

    @Test
    void theConfiguredTimeoutAppliesToToolsWithoutTheirOwn() {
        ToolExecutor.Policy policy = new ToolExecutor.Policy(Duration.ofMillis(40), 3, Duration.ofMillis(1), Duration.ofMillis(5), 64, 16000);
        ToolExecutor ex = ToolExecutors.of(policy, new Redactor(List.of(), List.of()), new FnTool("stuck", (a, s) -> Uni.createFrom().nothing()));
        ToolOutcome o = call(ex, "stuck", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).isEqualTo("stuck did not answer within 40ms");
    }

    @Test
    void aScopesTimeoutReplacesTheToolsOwn() {
        ToolExecutor ex = ToolExecutors.of(new FnTool("stuck", (a, s) -> Uni.createFrom().nothing()).withTimeout(Duration.ofSeconds(30)));
        ToolOutcome o = call(ex, "stuck", "{}", new ToolScope("t1", "u", Map.of()).withTimeout(Duration.ofMillis(30)));
        assertThat(o.error()).isTrue();
        assertThat(o.content()).isEqualTo("stuck did not answer within 30ms");
    }

    @Test
    void retryableFailuresAreTriedAgainUntilTheySucceed() {
        AtomicInteger tries = new AtomicInteger();
        ToolExecutor ex = ToolExecutors.of(new FnTool("flaky", (a, s) -> tries.incrementAndGet() < 3
                ? Uni.createFrom().failure(new RetryableToolException("busy")) : Uni.createFrom().item("ok")));
        ToolOutcome ok = call(ex, "flaky", "{}");
        assertThat(ok.error()).isFalse();
        assertThat(ok.content()).isEqualTo("ok");
        assertThat(ok.attempts()).isEqualTo(3);
        assertThat(tries).hasValue(3);
    }

    @Test
    void otherFailuresAreTriedOnce() {
        AtomicInteger tries = new AtomicInteger();
        ToolExecutor ex = ToolExecutors.of(new FnTool("broken", (a, s) -> {
            tries.incrementAndGet();
            return Uni.createFrom().failure(new IllegalStateException("bad input"));
        }));
        ToolOutcome failed = call(ex, "broken", "{}");
        assertThat(failed.error()).isTrue();
        assertThat(failed.content()).isEqualTo("broken failed: bad input");
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(tries).hasValue(1);
    }

    @Test
    void retriesStopAtTheConfiguredAttemptsAndSaySo() {
        AtomicInteger tries = new AtomicInteger();
        ToolExecutor ex = ToolExecutors.of(new FnTool("down", (a, s) -> {
            tries.incrementAndGet();
            return Uni.createFrom().failure(new RetryableToolException("service unavailable"));
        }));
        ToolOutcome o = call(ex, "down", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(3);
        assertThat(tries).hasValue(3);
        assertThat(o.content()).isEqualTo("down failed after 3 attempts: service unavailable");
    }

    @Test
    void anIoFailureWrappedByAnAsyncClientIsRetryableButAJsonErrorIsNot() {
        AtomicInteger io = new AtomicInteger();
        AtomicInteger json = new AtomicInteger();
        ToolExecutor ex = ToolExecutors.of(
                new FnTool("io", (a, s) -> io.incrementAndGet() < 2
                        ? Uni.createFrom().failure(new CompletionException(new IOException("connection reset")))
                        : Uni.createFrom().item("recovered")),
                new FnTool("json", (a, s) -> {
                    json.incrementAndGet();
                    return Uni.createFrom().failure(new JsonParseException(null, "Unexpected character"));
                }));
        ToolOutcome recovered = call(ex, "io", "{}");
        assertThat(recovered.content()).isEqualTo("recovered");
        assertThat(recovered.attempts()).isEqualTo(2);
        ToolOutcome json1 = call(ex, "json", "{}");
        assertThat(json1.error()).isTrue();
        assertThat(json1.attempts()).isEqualTo(1);
        assertThat(json).hasValue(1);
    }

    @Test
    void aToolThatThrowsOrReturnsNothingGivesAnErrorOutcome() {
        ToolExecutor ex = ToolExecutors.of(
                new FnTool("throws", (a, s) -> {
                    throw new IllegalArgumentException("kaboom");
                }),
                new FnTool("null", (a, s) -> null));
        ToolOutcome thrown = call(ex, "throws", "{}");
        assertThat(thrown.error()).isTrue();
        assertThat(thrown.content()).isEqualTo("throws failed: kaboom");
        ToolOutcome nothing = call(ex, "null", "{}");
        assertThat(nothing.error()).isTrue();
        assertThat(nothing.content()).startsWith("null failed");
    }

    @Test
    void secretsAndPatternsAreRedactedFromResultsAndErrors() {
        Redactor redactor = new Redactor(List.of("sk-[A-Za-z0-9]{8,}"), List.of("hunter2-token"));
        ToolExecutor ex = ToolExecutors.of(ToolExecutors.POLICY, redactor,
                new FnTool("leaky", (a, s) -> Uni.createFrom().item("key sk-abcdefgh1234 and hunter2-token")),
                new FnTool("leaky-error", (a, s) -> Uni.createFrom().failure(new IllegalStateException("auth hunter2-token refused"))));
        ToolOutcome result = call(ex, "leaky", "{}");
        assertThat(result.error()).isFalse();
        assertThat(result.content()).isEqualTo("key [REDACTED] and [REDACTED]");
        assertThat(call(ex, "leaky-error", "{}").content()).isEqualTo("leaky-error failed: auth [REDACTED] refused");
    }

    @Test
    void theSecretsOfEveryToolAreGatheredForRedaction() {
        Tool keyed = new FnTool("plain", (a, s) -> Uni.createFrom().item("x"));
        Tool withSecret = new Tool() {
            public String name() { return "vault"; }
            public String description() { return "vault"; }
            public String parametersSchema() { return FnTool.ANY_OBJECT; }
            public Uni<String> execute(JsonNode a, ToolScope s) { return Uni.createFrom().item("x"); }
            public Set<String> secrets() { return Set.of("vault-token-123"); }
        };
        assertThat(new ToolRegistry(List.of(keyed, withSecret)).secrets()).containsExactly("vault-token-123");
    }

    @Test
    void longOutputIsCutToTheConfiguredSize() {
        ToolExecutor.Policy policy = new ToolExecutor.Policy(Duration.ofSeconds(5), 1, Duration.ofMillis(1), Duration.ofMillis(1), 4, 100);
        ToolExecutor ex = ToolExecutors.of(policy, new Redactor(List.of(), List.of()), new FnTool("big", (a, s) -> Uni.createFrom().item("x".repeat(5000))));
        ToolOutcome o = call(ex, "big", "{}");
        assertThat(o.error()).isFalse();
        assertThat(o.content()).isEqualTo("x".repeat(100) + "\n[truncated]");
    }

    @Test
    void argumentsThatBreakTheSchemaNeverReachTheTool() {
        AtomicInteger runs = new AtomicInteger();
        String schema = """
                {"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}},\
                "required":["city"],"additionalProperties":false}""";
        ToolExecutor ex = ToolExecutors.of(new FnTool("weather", (a, s) -> {
            runs.incrementAndGet();
            return Uni.createFrom().item("sunny in " + a.get("city").asText());
        }).withSchema(schema));

        ToolOutcome missing = call(ex, "weather", "{}");
        assertThat(missing.error()).isTrue();
        assertThat(missing.attempts()).isZero();
        assertThat(missing.content()).isEqualTo("invalid arguments for weather: $: required property 'city' not found");
        assertThat(call(ex, "weather", "{\"city\":\"Lyon\",\"days\":\"two\"}").content())
                .isEqualTo("invalid arguments for weather: $.days: string found, integer expected");
        assertThat(call(ex, "weather", "{\"city\":\"Lyon\",\"days\":0}").content()).contains("$.days").contains("minimum");
        assertThat(call(ex, "weather", "{\"city\":\"Lyon\",\"extra\":1}").content())
                .startsWith("invalid arguments for weather: $: property 'extra' is not defined in the schema");
        assertThat(call(ex, "weather", "[1,2]").content()).isEqualTo("the arguments of weather must be a JSON object");
        assertThat(call(ex, "weather", "{not json").content()).isEqualTo("the arguments of weather are not valid JSON");
        assertThat(runs).hasValue(0);

        ToolOutcome ok = call(ex, "weather", "{\"city\":\"Lyon\",\"days\":2}");
        assertThat(ok.error()).isFalse();
        assertThat(ok.content()).isEqualTo("sunny in Lyon");
        assertThat(ok.attempts()).isEqualTo(1);
        assertThat(runs).hasValue(1);
    }

    @Test
    void noArgumentsAtAllAreAnEmptyObject() {
        ToolExecutor ex = ToolExecutors.of(new FnTool("noargs", (a, s) -> Uni.createFrom().item("args " + a)));
        assertThat(call(ex, "noargs", "").content()).isEqualTo("args {}");
        assertThat(call(ex, "noargs", null).content()).isEqualTo("args {}");
    }

    @Test
    void anUnknownToolIsAnErrorOutcomeNamingTheTools() {
        ToolOutcome o = call(ToolExecutors.of(new FnTool("one", (a, s) -> Uni.createFrom().item("1"))), "two", "{}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isZero();
        assertThat(o.content()).isEqualTo("there is no tool named two; the tools are one");
    }

    @Test
    void injectedArgumentsComeFromTheRunNotTheModelAndAreHiddenFromIt() {
        String schema = """
                {"type":"object","properties":{"key":{"type":"string"},"user_id":{"type":"string"},"course":{"type":"string"}},\
                "required":["key","user_id","course"],"additionalProperties":false}""";
        ToolExecutor ex = ToolExecutors.of(new FnTool("whoami", (a, s) -> Uni.createFrom().item(a.get("user_id").asText() + "/" + a.get("course").asText()))
                .withSchema(schema).injecting("user_id", "course"));
        // the scope's user is ada (ToolScope.userId()), its values say course=linear-algebra
        assertThat(call(ex, "whoami", "{\"key\":\"k\",\"user_id\":\"mallory\",\"course\":\"other\"}").content()).isEqualTo("ada/linear-algebra");
        assertThat(call(ex, "whoami", "{\"key\":\"k\"}").content()).isEqualTo("ada/linear-algebra");

        ToolSpec spec = ex.specs().get(0);
        assertThat(spec.parametersSchema()).isEqualTo("{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"}},"
                + "\"required\":[\"key\"],\"additionalProperties\":false}");
    }

    @Test
    void aRunWithoutTheInjectedValueCannotRunTheTool() {
        AtomicInteger runs = new AtomicInteger();
        String schema = "{\"type\":\"object\",\"properties\":{\"user_id\":{\"type\":\"string\"}},\"required\":[\"user_id\"]}";
        ToolExecutor ex = ToolExecutors.of(new FnTool("mine", (a, s) -> {
            runs.incrementAndGet();
            return Uni.createFrom().item("x");
        }).withSchema(schema).injecting("user_id"));
        ToolOutcome o = call(ex, "mine", "{\"user_id\":\"mallory\"}", new ToolScope("t1", null, Map.of()));
        assertThat(o.error()).isTrue();
        assertThat(o.content()).isEqualTo("mine cannot run here: it needs user_id from the conversation, which has none");
        assertThat(runs).hasValue(0);
    }

    @Test
    void aBlockingToolRunsOffTheEventLoopAndANonBlockingOneWhereItIsCalled() throws Exception {
        AtomicReference<Boolean> blockingOnEventLoop = new AtomicReference<>();
        AtomicReference<Boolean> plainOnEventLoop = new AtomicReference<>();
        ToolExecutor ex = ToolExecutors.of(
                new FnTool("blocking", (a, s) -> Uni.createFrom().item(() -> {
                    blockingOnEventLoop.set(Context.isOnEventLoopThread());
                    return "done";
                })).blockingTool(),
                new FnTool("plain", (a, s) -> Uni.createFrom().item(() -> {
                    plainOnEventLoop.set(Context.isOnEventLoopThread());
                    return "done";
                })));
        Vertx vertx = Vertx.vertx();
        try {
            CompletableFuture<List<ToolOutcome>> outcomes = new CompletableFuture<>();
            CompletableFuture<Boolean> callerOnEventLoop = new CompletableFuture<>();
            vertx.runOnContext(v -> {
                callerOnEventLoop.complete(Context.isOnEventLoopThread());
                Uni.join().all(ex.call(new ToolCall("a", "blocking", "{}"), SCOPE), ex.call(new ToolCall("b", "plain", "{}"), SCOPE))
                        .andFailFast().subscribe().with(outcomes::complete, outcomes::completeExceptionally);
            });
            assertThat(outcomes.get(WAIT.toSeconds(), TimeUnit.SECONDS)).extracting(ToolOutcome::content).containsExactly("done", "done");
            assertThat(callerOnEventLoop.get()).isTrue();
            assertThat(blockingOnEventLoop.get()).isFalse();
            // guards the check above: the same probe does see the event loop
            assertThat(plainOnEventLoop.get()).isTrue();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void twoToolsWithOneNameAreRefused() {
        assertThatThrownBy(() -> new ToolRegistry(List.of(new FnTool("same", (a, s) -> null), new FnTool("same", (a, s) -> null))))
                .isInstanceOf(IllegalStateException.class).hasMessage("two tools are named same; tool names must be unique");
    }

    @Test
    void aToolWithABadSchemaIsRefusedWhenRegistered() {
        assertThatThrownBy(() -> new ToolRegistry(List.of(new FnTool("t", (a, s) -> null).withSchema("{\"type\":"))))
                .hasMessageStartingWith("tool t: its argument schema is not JSON");
        assertThatThrownBy(() -> new ToolRegistry(List.of(new FnTool("t", (a, s) -> null).withSchema("{\"type\":\"string\"}"))))
                .hasMessageStartingWith("tool t: its argument schema must be an object schema");
        assertThatThrownBy(() -> new ToolRegistry(List.of(new FnTool("t", (a, s) -> null)
                .withSchema("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integr\"}}}"))))
                .hasMessageStartingWith("tool t: its argument schema is not valid JSON Schema").hasMessageContaining("$.properties.n.type");
    }

    @Test
    void aToolFromOutsideTheCodeIsCheckedAgainstTheMetaSchemaWhateverTheAssertions() {
        ArgumentSchema bad = new ArgumentSchema("t", "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integr\"}}}", Set.of());
        assertThatThrownBy(bad::checkAgainstMetaSchema)
                .hasMessageStartingWith("tool t: its argument schema is not valid JSON Schema").hasMessageContaining("$.properties.n.type");
        assertThatThrownBy(() -> new ToolRegistry(List.of(), List.of(new FnTool("t", (a, s) -> null)
                .withSchema("{\"type\":\"object\",\"required\":\"n\"}"))))
                .hasMessageStartingWith("tool t: its argument schema is not valid JSON Schema").hasMessageContaining("$.required");
    }

    @Test
    void theTestsRunWithAssertionsSoTheCodesToolSchemasAreCheckedAgainstTheMetaSchema() {
        // what checks the schemas written in the code (ToolRegistry's assert): off in the service, so on here
        assertThat(ToolRegistry.class.desiredAssertionStatus()).isTrue();
    }

    private static ToolExecutor.Policy withMaxConcurrent(int max) {
        ToolExecutor.Policy p = ToolExecutors.POLICY;
        return new ToolExecutor.Policy(p.timeout(), p.maxAttempts(), p.backoff(), p.maxBackoff(), max, p.maxOutputChars());
    }

    private static CompletableFuture<ToolOutcome> start(ToolExecutor ex, String id) {
        CompletableFuture<ToolOutcome> outcome = new CompletableFuture<>();
        ex.call(new ToolCall(id, "slow", "{}"), SCOPE).subscribe().with(outcome::complete, outcome::completeExceptionally);
        return outcome;
    }
}
