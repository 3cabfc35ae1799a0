package io.conduit.runs.cluster;

import io.conduit.runs.cluster.FrameExchange.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.jboss.logging.Logger;

/**
 * Group commit of relayed frames: frames queue while a write is in flight or during a short linger after the first
 * one, then go in one statement, so a run's tokens cost the database one insert per few milliseconds, not one each,
 * and the frames of many threads share it. Order is kept: one write at a time, in queue order.
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
    private List<Frame> queue = new ArrayList<>();
    private boolean scheduled;
    private boolean inFlight;

    FrameBatcher(FrameExchange exchange, Timer timer, long lingerMillis, int maxBatch, LongConsumer written) {
        this.exchange = exchange;
        this.timer = timer;
        this.lingerMillis = lingerMillis;
        this.maxBatch = maxBatch;
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
            // another replica's clients miss these frames; they see the run's end from its record
            LOG.warnf("%d relayed frames were not stored: %s", batch.size(), f.getMessage());
            done(0);
        });
    }

    private void done(int n) {
        written.accept(n);
        synchronized (this) {
            inFlight = false;
        }
        flush();
    }
}
