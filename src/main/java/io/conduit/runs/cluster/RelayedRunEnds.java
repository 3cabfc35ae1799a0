package io.conduit.runs.cluster;

import io.conduit.runs.RunStore;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * Ends the relayed runs whose end never came through the table: their owner died after its last write, or a write
 * was lost. Their records say when they finished (a run taken over goes on, and its new owner's relay ends it); then
 * their clients here are ended, instead of waiting for ever, and the runs expire with the formats' retention.
 */
final class RelayedRunEnds {

    private static final Logger LOG = Logger.getLogger(RelayedRunEnds.class);

    private final ThreadLogs logs;
    private final RunStore runs;
    private final LongSupplier clock;
    /** How long after its record's end a relayed run's own end may still be on its way ({@code relay-wait}). */
    private final long graceMillis;

    RelayedRunEnds(ThreadLogs logs, RunStore runs, LongSupplier clock, Duration grace) {
        this.logs = logs;
        this.runs = runs;
        this.clock = clock;
        this.graceMillis = grace.toMillis();
    }

    /** Looks up the record of every relayed run still open here; run it periodically. */
    void check() {
        for (String threadId : logs.threads()) {
            ThreadLog log = logs.find(threadId);
            if (log == null) {
                continue;
            }
            for (String runId : log.openRemoteRuns()) {
                runs.get(runId).subscribe().with(found -> {
                    // finished a while ago: its own end, written within milliseconds of its record's, was lost
                    if (found.isEmpty() || found.get().status().finished()
                            && found.get().updatedAt().toEpochMilli() < clock.getAsLong() - graceMillis) {
                        // common for runs whose clients here had left before the end (their end is not relayed then),
                        // so at debug: the line that tells why a client here missed a run's last frames
                        LOG.debugf("Relayed run %s of thread %s ended from its record: %s", runId, threadId,
                                found.isEmpty() ? "the run is deleted" : "its end did not come within " + graceMillis + " ms of it");
                        log.endRemote(runId, clock.getAsLong());
                    }
                }, f -> { }); // the next check looks again
            }
        }
    }
}
