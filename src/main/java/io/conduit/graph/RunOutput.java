package io.conduit.graph;

import io.conduit.checkpoint.CheckpointConflictException;
import io.smallrye.mutiny.Uni;
import java.util.concurrent.CompletionException;

/**
 * What a run says: its events, then exactly one terminal event ({@code RunFinished}, {@code Interrupted} or
 * {@code RunFailed}), then nothing. Once the subscriber has cancelled or the run has ended, nothing more is emitted.
 */
final class RunOutput {

    private final RunEventStream.Emitter out;
    private final WriteQueue writes;
    private final String runId;
    private final String threadId;
    private final String ns;
    private volatile boolean ended;

    RunOutput(RunEventStream.Emitter out, WriteQueue writes, String runId, String threadId, String ns) {
        this.out = out;
        this.writes = writes;
        this.runId = runId;
        this.threadId = threadId;
        this.ns = ns;
    }

    /** Runs {@code action} when the subscriber cancels or the run ends; from then on the run is over. */
    void onTermination(Runnable action) {
        out.onTermination(() -> {
            ended = true;
            action.run();
        });
    }

    boolean ended() {
        return ended;
    }

    GraphEvent.Tag tag(String node, int step) {
        return new GraphEvent.Tag(runId, threadId, ns, node, step);
    }

    void emit(GraphEvent event) {
        if (!ended) {
            out.emit(event);
        }
    }

    /** Ends the run once everything queued is stored: "finished" or "interrupted" is never said before that. */
    Uni<Boolean> end(GraphEvent terminal) {
        return writes.flush().map(v -> {
            if (!ended) {
                out.emit(terminal);
                out.complete();
            }
            return false;
        });
    }

    /** Ends the run with {@code RunFailed}: errors are events with a code, never stream failures. */
    void fail(Throwable failure, int step) {
        if (ended) {
            return;
        }
        Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        GraphException g = t instanceof GraphException ge ? ge
                : t instanceof CheckpointConflictException c ? new GraphException(GraphException.Code.CONFLICT, c.getMessage(), c)
                : new GraphException(GraphException.Code.PERSISTENCE_FAILED, "the checkpoint store failed: " + t.getMessage(), t);
        // what was queued before the failure is still stored; then the run reports the failure
        writes.flush().onFailure().recoverWithNull().subscribe().with(v -> {
            if (!ended) {
                out.emit(new GraphEvent.RunFailed(tag(null, step), g.code().wire(), g.getMessage()));
                out.complete();
            }
        });
    }
}
