package io.conduit.runs.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The drain reaches every open stream through its permit, once, and a stream opened during it at once. */
class StreamPermitsShutdownTest {

    @Test
    void shutDownTellsTheOpenStreamsOnlyAndThoseOpenedAfterAtOnce() {
        StreamPermits permits = new StreamPermits(10, Duration.ofSeconds(1));
        List<String> told = new ArrayList<>();
        StreamPermits.Permit open = permits.tryAcquire(StreamTransport.CLASSIC_SSE);
        open.onShutdown(() -> told.add("open"));
        StreamPermits.Permit closed = permits.tryAcquire(StreamTransport.CLASSIC_SSE);
        closed.onShutdown(() -> told.add("closed"));
        closed.release();
        StreamPermits.Permit silent = permits.tryAcquire(StreamTransport.CLASSIC_SSE); // a stream that said nothing is counted, and nothing runs

        assertThat(permits.shutDown()).isEqualTo(2);
        assertThat(told).containsExactly("open");

        StreamPermits.Permit late = permits.tryAcquire(StreamTransport.CLASSIC_SSE);
        late.onShutdown(() -> told.add("late"));
        assertThat(told).containsExactly("open", "late");
        open.release();
        silent.release();
        late.release();
        assertThat(permits.open()).isZero();
    }
}
