package io.conduit.runs.delivery;

import io.smallrye.mutiny.Uni;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The bytes handed to a socket that cannot say its write queue is full (websockets-next has no
 * {@code writeQueueFull()}): counted from the send until it completes. Past {@code max} the socket has no room, so an
 * {@link OutboxDrain} stops feeding it, and {@code resume} is called once sends have drained below the bound again.
 */
public final class BytesInFlight {

    private final long max;
    private final Runnable resume;
    private final AtomicLong inFlight = new AtomicLong();
    private volatile boolean full;

    public BytesInFlight(long max, Runnable resume) {
        this.max = max;
        this.resume = resume;
    }

    public boolean hasRoom() {
        if (inFlight.get() < max) {
            return true;
        }
        full = true;
        return inFlight.get() < max; // a send may have completed since
    }

    /** Sends {@code frame} with {@code sender}, counted until the send completes (or fails: the bytes left either way). */
    public void send(String frame, Function<String, Uni<Void>> sender) {
        long bytes = frame.length();
        inFlight.addAndGet(bytes);
        sender.apply(frame).subscribe().with(x -> written(bytes), f -> written(bytes));
    }

    private void written(long bytes) {
        if (inFlight.addAndGet(-bytes) < max && full) {
            full = false;
            resume.run();
        }
    }
}
