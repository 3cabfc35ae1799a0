package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which waits the pacing asks for, seen through a timer that records them and completes at once. */
class TokenPacingTest {

    private final List<Duration> asked = new ArrayList<>();
    private final TokenPacing.Timer recording = (delay, then) -> {
        asked.add(delay);
        then.run();
        return () -> { };
    };

    private List<String> pace(Duration first, Duration between, List<String> items) {
        return new TokenPacing(first, between, recording).pace(items).collect().asList().await().indefinitely();
    }

    @Test
    void zeroDelaysSetNoTimerAtAll() {
        assertThat(pace(Duration.ZERO, Duration.ZERO, List.of("a", "b", "c"))).containsExactly("a", "b", "c");
        assertThat(asked).isEmpty();
    }

    @Test
    void timeToFirstTokenComesBeforeTheFirstItemAndTheInterTokenDelayBeforeEachOther() {
        assertThat(pace(Duration.ofMillis(300), Duration.ofMillis(40), List.of("a", "b", "c"))).containsExactly("a", "b", "c");
        assertThat(asked).containsExactly(Duration.ofMillis(300), Duration.ofMillis(40), Duration.ofMillis(40));
    }

    @Test
    void onlyTheNonZeroDelaySetsTimers() {
        assertThat(pace(Duration.ofMillis(300), Duration.ZERO, List.of("a", "b"))).containsExactly("a", "b");
        assertThat(asked).containsExactly(Duration.ofMillis(300));
        asked.clear();
        assertThat(pace(Duration.ZERO, Duration.ofMillis(5), List.of("a", "b", "c"))).containsExactly("a", "b", "c");
        assertThat(asked).containsExactly(Duration.ofMillis(5), Duration.ofMillis(5));
    }

    @Test
    void aWaitStartsOnlyWhenAnItemIsWanted() {
        List<Runnable> pending = new ArrayList<>();
        TokenPacing.Timer hand = (delay, then) -> {
            asked.add(delay);
            pending.add(then);
            return () -> pending.remove(then);
        };
        AssertSubscriber<String> sub = new TokenPacing(Duration.ofMillis(300), Duration.ofMillis(40), hand)
                .pace(List.of("a", "b")).subscribe().withSubscriber(AssertSubscriber.create(0));

        assertThat(asked).as("nothing wanted yet").isEmpty();
        sub.request(1);
        assertThat(asked).containsExactly(Duration.ofMillis(300));
        pending.removeFirst().run();
        assertThat(sub.getItems()).containsExactly("a");
        assertThat(asked).as("the next wait waits for demand").hasSize(1);

        sub.request(5);
        pending.removeFirst().run();
        sub.assertCompleted().assertItems("a", "b");
        assertThat(pending).isEmpty();
    }

    @Test
    void aCancelStopsThePendingWaitAndNothingFollows() {
        List<Runnable> pending = new ArrayList<>();
        TokenPacing.Timer hand = (delay, then) -> {
            pending.add(then);
            return () -> pending.remove(then);
        };
        AssertSubscriber<String> sub = new TokenPacing(Duration.ofMillis(5), Duration.ofMillis(5), hand)
                .pace(List.of("a", "b", "c")).subscribe().withSubscriber(AssertSubscriber.create(10));
        pending.removeFirst().run();
        sub.cancel();

        assertThat(pending).as("the wait for b was cancelled").isEmpty();
        assertThat(sub.getItems()).containsExactly("a");
        sub.assertNotTerminated();
    }
}
