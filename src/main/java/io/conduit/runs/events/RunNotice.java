package io.conduit.runs.events;

import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.StreamMode;
import java.util.List;
import java.util.Set;

/**
 * What a thread's log keeps of a run besides its engine events ({@link io.conduit.graph.GraphEvent}): the worker's
 * facts about the run. Each wire format's translator reads them as it reads the engine's events.
 */
public sealed interface RunNotice {

    /**
     * The run has event numbers: its frames are numbered from {@code firstSeq} in every wire format. {@code executed}:
     * the run starts executing (false: it ended before it began, and only its classic {@code metadata} and error are said).
     */
    record Began(long firstSeq, Run run, String graphId, Set<StreamMode> modes, boolean executed) implements RunNotice {
    }

    /** The run resumes these interrupts (a {@code Command(resume)}). */
    record Answered(List<String> interruptIds) implements RunNotice {
    }

    /** The classic {@code error} the run ends with. */
    record Said(String code, String message) implements RunNotice {
    }

    /**
     * The run's end as recorded: its last entry. {@code error} is why it failed; {@code classicEnd}: the classic stream
     * ends with {@code end} (a run that failed or was stopped ends with its error instead).
     */
    record Ended(RunStatus status, String error, boolean classicEnd) implements RunNotice {
    }
}
