package io.conduit.runs.events;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A text written the first time it is asked for, then kept: an event's JSON that no client may ever read
 * ({@link RunEvent#later}). Not locked: two threads asking at once may both write it, so the writer must give the
 * same text whenever and wherever it runs (it reads only immutable values); a {@code String} is safely published
 * through its final fields.
 */
public final class WrittenOnce implements Supplier<String> {

    private final Supplier<String> writer;
    private String written;

    public WrittenOnce(Supplier<String> writer) {
        this.writer = Objects.requireNonNull(writer);
    }

    @Override
    public String get() {
        String w = written;
        if (w == null) {
            w = writer.get();
            written = w;
        }
        return w;
    }
}
