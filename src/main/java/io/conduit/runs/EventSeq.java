package io.conduit.runs;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The seqs of one run's frames in one wire format, from the first of the block the run reserved in its thread's
 * store: each format's translation of the run counts from there, so a seq names one frame of that format for the
 * thread's whole life (blocks never overlap).
 */
final class EventSeq {

    private final AtomicLong next;

    EventSeq(long first) {
        this.next = new AtomicLong(first);
    }

    long next() {
        return next.getAndIncrement();
    }
}
