package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which waits the pacing asks for, seen through a timer that records them and completes at once. */
class TokenPacingTest {

    private final List<Duration> asked = new ArrayList<>();
    private final TokenPacing.Timer recording = delay -> {
        asked.add(delay);
        return Uni.createFrom().voidItem();
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
}
