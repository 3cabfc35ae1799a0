package io.conduit.runs.events;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The seqs of one run's frames in one wire format, from the first of the block the run reserved in its thread's
 * store: each format's translation of the run counts from there, so a seq names one frame of that format for the
 * thread's whole life (blocks never overlap).
 */
public final class EventSeq {

    private final AtomicLong next;

    public EventSeq(long first) {
        this.next = new AtomicLong(first);
    }

    public long next() {
        return next.getAndIncrement();
    }
}
