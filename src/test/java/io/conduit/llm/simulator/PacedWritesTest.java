package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's writes under {@link TokenPacing}, through a timer that records the waits: the role delta and the
 * first token share the time-to-first-token write, so the first token does not also wait an inter-token delay.
 */
class PacedWritesTest {

    private final List<Duration> asked = new ArrayList<>();
    private final TokenPacing.Timer recording = (delay, then) -> {
        asked.add(delay);
        then.run();
        return () -> { };
    };

    @Test
    void theRoleDeltaGoesOutWithTheFirstTokenAfterTheTimeToFirstTokenOnly() {
        List<Supplier<String>> chunks = List.of(() -> "{role}", () -> "{Hello}", () -> "{world}", () -> "{stop}");
        List<String> written = new TokenPacing(Duration.ZERO, Duration.ofSeconds(60), recording)
                .pace(PacedWrites.of(chunks)).map(Supplier::get).collect().asList().await().indefinitely();

        assertThat(written).containsExactly("data: {role}\n\ndata: {Hello}\n\n", "data: {world}\n\n", "data: {stop}\n\n");
        assertThat(asked).as("no wait before the first token, one before each later chunk")
                .containsExactly(Duration.ofSeconds(60), Duration.ofSeconds(60));
    }

    @Test
    void eachChunkIsMadeWhenItIsWritten() {
        int[] made = {0};
        List<Supplier<String>> chunks = List.of(() -> "{role}", () -> "{t" + ++made[0] + "}", () -> "{t" + ++made[0] + "}");
        List<Supplier<String>> writes = PacedWrites.of(chunks);
        assertThat(made[0]).isZero();
        assertThat(writes.get(1).get()).isEqualTo("data: {t1}\n\n");
        assertThat(writes.get(0).get()).isEqualTo("data: {role}\n\ndata: {t2}\n\n");
    }

    @Test
    void aLoneChunkIsOneWrite() {
        assertThat(PacedWrites.of(List.of(() -> "{x}"))).singleElement().satisfies(w -> assertThat(w.get()).isEqualTo("data: {x}\n\n"));
    }
}
