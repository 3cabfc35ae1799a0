package io.conduit.runs.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.TokenUsage;
import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.PrincipalLimitsConfig;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.TokenUsageStore;
import io.conduit.runs.memory.InMemoryTokenUsageStore;
import io.conduit.runs.worker.RunObserver;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Each model call's tokens go to the principal whose run made it, counted at once, before the store has them. */
class TokenUsageRecorderTest {

    private static final Instant NOON = Instant.parse("2025-03-14T12:00:00Z");
    private static final GraphEvent.Tag TAG = new GraphEvent.Tag("r", "t", "", "agent", 1);

    private static Run run(Map<String, Object> metadata) {
        return new Run("r", "t", "agent", RunStatus.RUNNING, metadata, MultitaskStrategy.ENQUEUE, null, NOON, NOON, NOON, "w");
    }

    private static GraphEvent.ChildEnded modelCall(int in, int out) {
        return new GraphEvent.ChildEnded(TAG, "c", "chat_model", "generator",
                new AssistantMessage("m", "hi", List.of(), null, "generator", new TokenUsage(in, out)), null);
    }

    private static PrincipalLimitsConfig budget(long tokens) {
        return new PrincipalLimitsConfig() {
            public int requestsPerMinute() {
                return 0;
            }

            public int maxConcurrentRuns() {
                return 0;
            }

            public long tokensPerDay() {
                return tokens;
            }

            public boolean adminsExempt() {
                return true;
            }

            public int maxTrackedCallers() {
                return 10;
            }
        };
    }

    private static long used(DailyTokens tokens, String principal) {
        return tokens.usedToday(principal).await().atMost(Duration.ofSeconds(5));
    }

    @Test
    void aModelCallsTokensCountForTheRunsOwnerAtOnce() {
        // a store whose writes have not landed yet: what was recorded still counts
        AtomicReference<Runnable> landWrites = new AtomicReference<>(() -> { });
        InMemoryTokenUsageStore memory = new InMemoryTokenUsageStore();
        TokenUsageStore slow = new TokenUsageStore() {
            @Override
            public Uni<Long> add(String principal, LocalDate day, long n) {
                return Uni.createFrom().emitter(e -> {
                    Runnable before = landWrites.get();
                    landWrites.set(() -> {
                        before.run();
                        e.complete(memory.add(principal, day, n).await().indefinitely());
                    });
                });
            }

            @Override
            public Uni<Long> used(String principal, LocalDate day) {
                return memory.used(principal, day);
            }

            @Override
            public Uni<Integer> forgetBefore(LocalDate day) {
                return memory.forgetBefore(day);
            }
        };
        DailyTokens tokens = new DailyTokens(slow, Clock.fixed(NOON, ZoneOffset.UTC));
        RunObserver.Watch ada = new TokenUsageRecorder(tokens, budget(100)).began(run(Map.of("owner", "ada")), "agent");
        ada.event(modelCall(30, 12));
        ada.event(new GraphEvent.ChildEnded(TAG, "tool", "tool", "get_current_time", "12:00", null)); // no model call
        ada.event(modelCall(5, 0));
        assertThat(used(tokens, "ada")).isEqualTo(47);
        landWrites.get().run();
        assertThat(used(tokens, "ada")).as("written, and no longer counted as in flight").isEqualTo(47);
        assertThat(used(tokens, "bo")).isZero();

        // a run without an owner (auth mode none) spends the anonymous principal's tokens
        new TokenUsageRecorder(tokens, budget(100)).began(run(Map.of()), "agent").event(modelCall(1, 1));
        landWrites.get().run();
        assertThat(used(tokens, "anonymous")).isEqualTo(2);
    }

    @Test
    void withoutABudgetNothingIsWatched() {
        DailyTokens tokens = new DailyTokens(new InMemoryTokenUsageStore(), Clock.fixed(NOON, ZoneOffset.UTC));
        assertThat(new TokenUsageRecorder(tokens, budget(0)).began(run(Map.of("owner", "ada")), "agent")).isSameAs(RunObserver.Watch.NONE);
    }

    @Test
    void aBudgetIsWholeAgainAtTheNextUtcDay() {
        DailyTokens tokens = new DailyTokens(new InMemoryTokenUsageStore(), Clock.fixed(NOON, ZoneOffset.UTC));
        assertThat(tokens.today()).isEqualTo(LocalDate.of(2025, 3, 14));
        assertThat(tokens.untilTomorrow()).isEqualTo(Duration.ofHours(12));
    }

}
