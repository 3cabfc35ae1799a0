package io.conduit.runs.events;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * A wire format as a thread's log serves it: how a run's entries become its frames, what a replay says in place of
 * frames that were shed, and how long after a run's end its frames are replayed.
 *
 * @param name      for logs and errors
 * @param translate makes a run's translator from its {@link RunNotice.Began}, writing to the given sink
 * @param notice    the frame a replay sends for a run whose entries were shed, through a frame seq
 * @param retention how long after its run's end a segment is replayed in this format
 */
public record EventView(String name, Translators translate, DroppedNotice notice, Duration retention) {

    /** Makes a run's translator. */
    @FunctionalInterface
    public interface Translators {
        RunTranslator of(RunNotice.Began began, Consumer<RunEvent> sink);
    }

    /** What a replay sends in place of the frames of run {@code runId} that were dropped, up to {@code droppedThrough}. */
    @FunctionalInterface
    public interface DroppedNotice {
        RunEvent of(String runId, long droppedThrough);
    }
}
