package io.conduit.runs;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The seqs of one run's events, taken from the block the run reserved in its thread's store: its classic events
 * ({@link LangGraphEvents}) and its protocol events ({@link ProtocolEvents}) draw from this one counter, so a seq names
 * one event in either log for the thread's whole life.
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
