package io.conduit.kernel;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * UUIDv7 ids whose text sorts in creation order, also within one millisecond (RFC 9562 method 1: the 12 bits after
 * the timestamp count up). The random bits are not secret: ids are names, not credentials. Clients sort checkpoints by id, as LangGraph's SDK does.
 */
public final class TimeOrderedIds {

    /** millis << 12 | counter, of the last id issued. */
    private static final AtomicLong LAST = new AtomicLong();

    private TimeOrderedIds() {
    }

    /** The creation time an id carries. */
    public static long millisOf(String id) {
        return UUID.fromString(id).getMostSignificantBits() >>> 16;
    }

    public static String next() {
        long now = System.currentTimeMillis() << 12;
        long stamp = LAST.updateAndGet(last -> Math.max(now, last + 1));
        long millis = stamp >>> 12;
        long counter = stamp & 0xFFF;
        long msb = (millis << 16) | (0x7L << 12) | counter;
        long lsb = (ThreadLocalRandom.current().nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }
}
