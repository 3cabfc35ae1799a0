package io.conduit.bench.stream;

import io.vertx.core.buffer.Buffer;
import java.util.function.BiConsumer;

/** Splits an SSE body into events as its buffers arrive: calls back with each (event name, data) pair. */
final class SseLines {
    private final StringBuilder partial = new StringBuilder();
    private final BiConsumer<String, String> onEvent;
    private String event = "message";
    private final StringBuilder data = new StringBuilder();

    SseLines(BiConsumer<String, String> onEvent) {
        this.onEvent = onEvent;
    }

    void feed(Buffer buffer) {
        partial.append(buffer.toString());
        int start = 0;
        for (int nl = partial.indexOf("\n", start); nl >= 0; nl = partial.indexOf("\n", start)) {
            int end = nl > start && partial.charAt(nl - 1) == '\r' ? nl - 1 : nl;
            line(partial.substring(start, end));
            start = nl + 1;
        }
        partial.delete(0, start);
    }

    private void line(String line) {
        if (line.isEmpty()) {
            if (!data.isEmpty()) {
                onEvent.accept(event, data.toString());
            }
            event = "message";
            data.setLength(0);
        } else if (line.startsWith("event:")) {
            event = line.substring(6).trim();
        } else if (line.startsWith("data:")) {
            if (!data.isEmpty()) {
                data.append('\n');
            }
            data.append(line, line.startsWith("data: ") ? 6 : 5, line.length());
        }
    }
}
