package io.conduit.runs.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each transport's open streams are counted apart, add up to the total, and the limit is shared by all. */
class StreamPermitsTest {

    @Test
    void eachTransportCountsItsOwnStreamsAndTheyAddUpToTheTotal() {
        StreamPermits permits = new StreamPermits(3, Duration.ofSeconds(1));
        StreamPermits.Permit ws1 = permits.tryAcquire(StreamTransport.PROTOCOL_WS);
        StreamPermits.Permit ws2 = permits.tryAcquire(StreamTransport.PROTOCOL_WS);
        StreamPermits.Permit sse = permits.tryAcquire(StreamTransport.AISDK_SSE);

        assertThat(permits.open(StreamTransport.PROTOCOL_WS)).isEqualTo(2);
        assertThat(permits.open(StreamTransport.AISDK_SSE)).isEqualTo(1);
        assertThat(permits.open(StreamTransport.CLASSIC_SSE)).isZero();
        assertThat(permits.open()).isEqualTo(3);

        // the limit is the replica's, whatever the transport: a refused stream is counted nowhere
        assertThat(permits.tryAcquire(StreamTransport.CLASSIC_SSE)).isNull();
        assertThat(permits.open(StreamTransport.CLASSIC_SSE)).isZero();

        ws1.release();
        ws1.release(); // given back once however often
        assertThat(permits.open(StreamTransport.PROTOCOL_WS)).isEqualTo(1);
        assertThat(sum(permits)).isEqualTo(permits.open()).isEqualTo(2);

        ws2.release();
        sse.release();
        assertThat(sum(permits)).isZero();
        assertThat(permits.open()).isZero();
    }

    @Test
    void everyTransportHasADistinctLabel() {
        assertThat(Arrays.stream(StreamTransport.values()).map(StreamTransport::label).distinct())
                .hasSize(StreamTransport.values().length)
                .allMatch(l -> l.matches("[a-z0-9_]+"));
    }

    private static int sum(StreamPermits permits) {
        return Arrays.stream(StreamTransport.values()).mapToInt(permits::open).sum();
    }
}
