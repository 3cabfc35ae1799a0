package io.conduit.runs.cluster;

import io.conduit.runs.StoreUnavailable;
import io.conduit.runs.cluster.FrameExchange.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.jboss.logging.Logger;

/**
 * Group commit of relayed frames: frames queue while a write is in flight or during a short linger after the first
 * one, then go in one statement, so a run's tokens cost the database one insert per few milliseconds, not one each,
 * and the frames of many threads share it. Order is kept: one write at a time, in queue order. A write refused because
 * the database is out of reach (restarting) is kept, first in line, and tried again with backoff, so that the other
 * replicas' clients get the runs whole once it is back rather than with a hole where the outage was; bounded by
 * {@code maxHeld} frames, past which a failed write is dropped as any other failure is.
 */
final class FrameBatcher {

    private static final Logger LOG = Logger.getLogger(FrameBatcher.class);

    /** Schedules a task after a delay in milliseconds (a Vert.x timer). */
    interface Timer {
        void after(long millis, Runnable task);
    }

    private final FrameExchange exchange;
    private final Timer timer;
    private final long lingerMillis;
    private final int maxBatch;
    private final LongConsumer written;
    /** The most frames queued while the store is out of reach. */
    private final int maxHeld;
    private List<Frame> queue = new ArrayList<>();
    private boolean scheduled;
    private boolean inFlight;
    /** Writes refused in a row because the store was out of reach. */
    private int refused;

    FrameBatcher(FrameExchange exchange, Timer timer, long lingerMillis, int maxBatch, LongConsumer written) {
        this(exchange, timer, lingerMillis, maxBatch, 100 * maxBatch, written);
    }

    FrameBatcher(FrameExchange exchange, Timer timer, long lingerMillis, int maxBatch, int maxHeld, LongConsumer written) {
        this.exchange = exchange;
        this.timer = timer;
        this.lingerMillis = lingerMillis;
        this.maxBatch = maxBatch;
        this.maxHeld = maxHeld;
        this.written = written;
    }

    synchronized void add(Frame frame) {
        queue.add(frame);
        if (inFlight || scheduled) {
            return;
        }
        scheduled = true;
        timer.after(lingerMillis, this::flush);
    }

    private void flush() {
        List<Frame> batch;
        synchronized (this) {
            scheduled = false;
            if (inFlight || queue.isEmpty()) {
                return;
            }
            inFlight = true;
            if (queue.size() <= maxBatch) {
                batch = queue;
                queue = new ArrayList<>();
            } else {
                batch = new ArrayList<>(queue.subList(0, maxBatch));
                queue = new ArrayList<>(queue.subList(maxBatch, queue.size()));
            }
        }
        exchange.append(batch).subscribe().with(ok -> done(batch.size()), f -> {
            if (StoreUnavailable.is(f) && keep(batch)) {
                return;
            }
            // another replica's clients miss these frames; they see the run's end from its record
            LOG.warnf("%d relayed frames were not stored: %s", batch.size(), f.getMessage());
            done(0);
        });
    }

    /** Puts a batch the store could not take back first in line and tries again later; false past the bound. */
    private boolean keep(List<Frame> batch) {
        int failures;
        synchronized (this) {
            if (queue.size() + batch.size() > maxHeld) {
                return false;
            }
            List<Frame> again = new ArrayList<>(batch.size() + queue.size());
            again.addAll(batch);
            again.addAll(queue);
            queue = again;
            failures = refused++;
        }
        if (failures == 0) {
            LOG.warnf("Relayed frames are kept until the database is back (%d queued)", batch.size());
        }
        // still in flight meanwhile: frames that arrive queue behind the kept ones
        timer.after(Math.min(100L << Math.min(failures, 5), 2_000L), () -> {
            synchronized (this) {
                inFlight = false;
            }
            flush();
        });
        return true;
    }

    private void done(int n) {
        written.accept(n);
        int failures;
        synchronized (this) {
            inFlight = false;
            failures = refused;
            refused = 0;
        }
        if (failures > 0 && n > 0) {
            LOG.infof("Relayed frames are stored again, after %d refused write(s)", failures);
        }
        flush();
    }
}
