package io.conduit.bench.soak;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

/**
 * The events of an SSE body read line by line (a blocking reader, on the conversation's virtual thread), until a
 * deadline: the server's heartbeat comments (every 10 s by default) are lines too, so a stream that carries nothing
 * more stops being read at most a heartbeat after its deadline, and {@link #timedOut} says so.
 */
final class SseEvents implements Iterator<SseEvents.Event> {

    /** One event: its name, its id (-1 when it has none) and its data. */
    record Event(String name, long id, String data) {
    }

    private final Iterator<String> lines;
    private final long deadlineNanos;
    private Event next;
    private boolean timedOut;

    SseEvents(Stream<String> lines, long deadlineNanos) {
        this.lines = lines.iterator();
        this.deadlineNanos = deadlineNanos;
    }

    boolean timedOut() {
        return timedOut;
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            next = read();
        }
        return next != null;
    }

    @Override
    public Event next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Event e = next;
        next = null;
        return e;
    }

    private Event read() {
        String name = "message";
        long id = -1;
        StringBuilder data = null;
        while (lines.hasNext()) {
            if (System.nanoTime() - deadlineNanos > 0) {
                timedOut = true;
                return null;
            }
            String line = lines.next();
            if (line.isEmpty()) {
                if (data != null) {
                    return new Event(name, id, data.toString());
                }
                name = "message";
                id = -1;
            } else if (line.startsWith("event:")) {
                name = line.substring(6).trim();
            } else if (line.startsWith("id:")) {
                id = Long.parseLong(line.substring(3).trim());
            } else if (line.startsWith("data:")) {
                data = data == null ? new StringBuilder() : data.append('\n');
                data.append(line, line.startsWith("data: ") ? 6 : 5, line.length());
            }
        }
        return data == null ? null : new Event(name, id, data.toString());
    }
}
