package io.conduit.runs.delivery;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import java.util.ArrayDeque;
import java.util.function.Predicate;

/**
 * One subscriber's bounded queue of run events, between the thread's event log (which calls it under its lock, on
 * the run's thread: it must never block) and the subscriber's socket (drained by an {@link OutboxDrain} on the
 * connection's context as the socket takes more). A subscriber that keeps up never has more than a few events here.
 * One that falls behind first has consecutive text deltas of one message merged ({@link TextMerge}) once more than
 * {@link OutboxBounds#coalesceBytes()} wait; past {@link OutboxBounds#maxBytes()} the queue is dropped and the
 * outbox is {@link #overflowed()}: the transport disconnects it as a slow consumer ({@link SlowConsumer}), and it
 * reconnects from the last id it received, losing nothing (the log still holds the events). The run and the other
 * subscribers never wait for it, and its memory stays bounded.
 *
 * <p>Replayed events ({@link #onReplay}) are not counted against the bounds, nor merged: the log holds them anyway.
 */
public final class Outbox implements RunEventListener {

    /** How far behind a subscriber was when it was dropped. */
    public record Backlog(long bytes, int events, long merged) {
    }

    private final OutboxBounds bounds;
    private final Predicate<RunEvent> wanted;
    private final ArrayDeque<RunEvent> queue = new ArrayDeque<>();
    /** The newest text deltas, being merged: logically the queue's last element. */
    private TextMerge merging;
    /** How many of the queue's first events are replayed ones (not counted in {@link #bytes}). */
    private int replayed;
    private long bytes;
    private long merged;
    private boolean ended;
    private boolean cancelled;
    private Backlog overflow;
    /** True when the consumer found nothing to take: the next event must wake it. */
    private boolean idle = true;
    private volatile Runnable ready = () -> { };

    /** {@code wanted}: the events this subscriber asked for (the others never enter the queue). */
    public Outbox(OutboxBounds bounds, Predicate<RunEvent> wanted) {
        this.bounds = bounds;
        this.wanted = wanted;
    }

    /** What to call when there is something to take after {@link #take} found nothing, or the outbox overflowed or ended. */
    void onReady(Runnable ready) {
        this.ready = ready;
    }

    @Override
    public void onEvent(RunEvent e) {
        if (wanted.test(e) && offer(e)) {
            ready.run();
        }
    }

    @Override
    public void onReplay(RunEvent e) {
        if (!wanted.test(e)) {
            return;
        }
        boolean wake;
        synchronized (this) {
            if (overflow != null || cancelled) {
                return;
            }
            if (queue.size() > replayed || merging != null) {
                wake = offer(e); // replayed after live events (not done by the log): counted as live, to keep the order
            } else {
                queue.addLast(e);
                replayed++;
                wake = idle;
                idle = false;
            }
        }
        if (wake) {
            ready.run();
        }
    }

    @Override
    public void onEnd() {
        synchronized (this) {
            ended = true;
            idle = false;
        }
        ready.run();
    }

    /** Queues a live event; true when the consumer must be woken. */
    private synchronized boolean offer(RunEvent e) {
        if (overflow != null || cancelled) {
            return false;
        }
        if (merging != null && merging.accepts(e)) {
            bytes -= merging.bytes();
            merging.add(e);
            bytes += merging.bytes();
            merged++;
        } else if (e.text() != null && bytes > bounds.coalesceBytes()) {
            settle();
            RunEvent tail = queue.size() > replayed ? queue.peekLast() : null;
            if (tail != null && TextMerge.continues(tail, e)) {
                queue.pollLast();
                bytes -= size(tail);
                merging = new TextMerge(tail);
                merging.add(e);
                merged++;
            } else {
                merging = new TextMerge(e);
            }
            bytes += merging.bytes();
        } else {
            settle();
            queue.addLast(e);
            bytes += size(e);
        }
        int waiting = queue.size() - replayed + (merging == null ? 0 : merging.count());
        if (bytes > bounds.maxBytes() && waiting > 1) { // one event alone, however large, is not falling behind
            overflow = new Backlog(bytes, waiting, merged);
            queue.clear();
            merging = null;
            replayed = 0;
            bytes = 0;
            idle = false;
            return true;
        }
        boolean wake = idle;
        idle = false;
        return wake;
    }

    /** Ends the merge in progress: the merged event joins the queue, and the next delta starts afresh. */
    private void settle() {
        if (merging != null) {
            queue.addLast(merging.event());
            merging = null;
        }
    }

    /**
     * The next event to send, or null when there is none now (the outbox then calls its ready callback when one
     * comes). Called by the consumer only.
     */
    public synchronized RunEvent take() {
        if (overflow != null || cancelled) {
            return null;
        }
        if (queue.isEmpty()) {
            if (merging == null) {
                idle = true;
                return null;
            }
            bytes -= merging.bytes();
            settle();
            return queue.pollFirst();
        }
        RunEvent e = queue.pollFirst();
        if (replayed > 0) {
            replayed--;
        } else if (e != null) {
            bytes -= size(e);
        }
        return e;
    }

    /** The log said nothing more will come and every event has been taken. */
    public synchronized boolean finished() {
        return ended && queue.isEmpty() && merging == null && overflow == null;
    }

    /** Non-null once the subscriber fell past the second bound: it is to be disconnected as a slow consumer. */
    public synchronized Backlog overflowed() {
        return overflow;
    }

    /** The subscriber is gone: drops what waits and takes nothing more. */
    public synchronized void cancel() {
        cancelled = true;
        queue.clear();
        merging = null;
        bytes = 0;
    }

    /** Bytes of live events waiting (for tests and metrics). */
    public synchronized long queuedBytes() {
        return bytes;
    }

    /** Text deltas merged into others so far. */
    public synchronized long merged() {
        return merged;
    }

    /** What an event costs in the queue: its characters and the record around them. */
    static long size(RunEvent e) {
        return size(e.length());
    }

    static long size(int chars) {
        return 64L + chars;
    }
}
