package io.conduit.runs.delivery;

import io.conduit.runs.LimitExceededException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open streaming connections of this replica (classic SSE, the thread protocol's SSE and WebSockets together),
 * counted by transport too ({@link StreamTransport}, for the metrics), bounded by {@code conduit.limits.max-streams}: a transport takes a permit before it opens a stream and gives it
 * back once, when the stream ends however it ends. Past the bound: HTTP 429 with {@code Retry-After}, or, on a
 * WebSocket already upgraded, a close with {@link #WEBSOCKET_CLOSE_CODE}.
 */
public final class StreamPermits {

    /** The error code of a refused stream, in the JSON body of the 429. */
    public static final String CODE = "too_many_streams";

    /**
     * 4000 plus HTTP 429: LangGraph's SDK reads 4xxx codes as HTTP statuses and reconnects after 4429 with its backoff
     * (1013, "try again later", is retried too, but as an unexplained drop; 4429 says why, like the SSE answer).
     */
    public static final int WEBSOCKET_CLOSE_CODE = 4429;

    private final int max;
    private final Duration retryAfter;
    private final AtomicInteger open = new AtomicInteger();
    /** The open streams of each transport, by ordinal: one more atomic add per stream opened or closed, no lock. */
    private final AtomicInteger[] openBy = new AtomicInteger[StreamTransport.values().length];
    /** The permits held now, for {@link #shutDown}. */
    private final java.util.Set<Permit> held = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean shuttingDown;

    public StreamPermits(int max, Duration retryAfter) {
        this.max = max;
        this.retryAfter = retryAfter;
        for (int i = 0; i < openBy.length; i++) {
            openBy[i] = new AtomicInteger();
        }
    }

    /**
     * A taken permit: {@link #release()} gives it back, once however often it is called. Its stream says, with
     * {@link #onShutdown}, how it ends when the replica shuts down.
     */
    public final class Permit {
        private final java.util.concurrent.atomic.AtomicBoolean taken = new java.util.concurrent.atomic.AtomicBoolean(true);
        private volatile Runnable onShutdown = () -> { };
        private final AtomicInteger openOfTransport;

        private Permit(AtomicInteger openOfTransport) {
            this.openOfTransport = openOfTransport;
        }

        public void release() {
            if (taken.compareAndSet(true, false)) {
                held.remove(this);
                openOfTransport.decrementAndGet();
                open.decrementAndGet();
            }
        }

        /**
         * How the stream ends when the replica shuts down ({@link ServerShutdown}): run by {@link #shutDown}, or at once
         * when the drain has begun already (a stream opened meanwhile).
         */
        public void onShutdown(Runnable r) {
            onShutdown = r;
            if (shuttingDown && taken.get()) {
                r.run();
            }
        }
    }

    /**
     * The replica shuts down: every open stream ends, each with its transport's last word ({@link ServerShutdown}), and
     * those opened from now on end as soon as they say how. Returns how many were open.
     */
    public int shutDown() {
        shuttingDown = true;
        List<Permit> now = List.copyOf(held);
        now.forEach(p -> p.onShutdown.run());
        return now.size();
    }

    /** Takes a permit for a stream of {@code transport}; null (nothing taken) when {@code max} streams are open. */
    public Permit tryAcquire(StreamTransport transport) {
        while (true) {
            int n = open.get();
            if (n >= max) {
                return null;
            }
            if (open.compareAndSet(n, n + 1)) {
                AtomicInteger ofTransport = openBy[transport.ordinal()];
                ofTransport.incrementAndGet();
                Permit p = new Permit(ofTransport);
                held.add(p);
                return p;
            }
        }
    }

    /** The streams open, every transport together. */
    public int open() {
        return open.get();
    }

    /** The streams of {@code transport} open; the transports' counts add up to {@link #open()}. */
    public int open(StreamTransport transport) {
        return openBy[transport.ordinal()].get();
    }

    public int max() {
        return max;
    }

    /** What to answer in {@code Retry-After}: whole seconds, at least 1. */
    public long retryAfterSeconds() {
        return LimitExceededException.retryAfterSeconds(retryAfter);
    }

    /** The sentence of the 429 (or the WebSocket close reason, which it fits). */
    public String refusal() {
        return "this replica has " + max + " streams open, its limit; retry later";
    }
}
