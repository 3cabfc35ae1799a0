package io.conduit.agui;

import io.conduit.graph.GraphException;
import io.conduit.graph.StateSnapshot;
import io.conduit.runs.Assistants;
import io.conduit.runs.ProtocolEventLogs;
import io.conduit.runs.Run;
import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;
import io.conduit.runs.RunEventLogs;
import io.conduit.runs.RunExecutor;
import io.conduit.runs.RunSubmission;
import io.conduit.runs.ThreadEventLog;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How AG-UI starts and follows runs, for every transport: the run request is built from the input and the thread as
 * it is ({@link AgUiRunBody}) and handed to {@link RunSubmission}, as {@code POST /threads/{id}/runs/stream} would
 * (same run records, multitask rules, checkpoints); then the run's events are read from the thread's protocol log
 * and handed to the transport's bounded outbox, which translates them as it drains ({@link AgUiEvents}).
 */
@ApplicationScoped
public class AgUiRuns {

    /** The mode of the event that stands for a run's end the protocol log never saw (a run stopped before it started). */
    static final String STOPPED = "agui.stopped";

    /** A stored run, and the protocol log's last seq before it (its events come after). */
    record Started(Run run, boolean cancelOnDisconnect, long afterSeq) {
    }

    private final RunSubmission submission;
    private final Assistants assistants;
    private final ProtocolEventLogs protocol;
    private final RunEventLogs classic;
    private final RunExecutor executor;

    AgUiRuns(RunSubmission submission, Assistants assistants, ProtocolEventLogs protocol, RunEventLogs classic, RunExecutor executor) {
        this.submission = submission;
        this.assistants = assistants;
        this.protocol = protocol;
        this.classic = classic;
        this.executor = executor;
    }

    /**
     * Stores the run. Fails with {@link io.conduit.runs.InvalidInputException} and the submission's own errors for bad
     * input, and with {@link AgUiRunBody.Refusal} for a resume that does not fit the thread: nothing is written then.
     */
    Uni<Started> start(String assistantRef, RunAgentInput input) {
        return assistants.resolve(assistantRef)
                .chain(a -> assistants.graph(a).graph().state(input.threadId())
                        .onFailure(f -> f instanceof GraphException g && g.code() == GraphException.Code.UNKNOWN_THREAD)
                        .recoverWithItem(Optional.<StateSnapshot>empty()))
                .chain(thread -> {
                    long afterSeq = protocol.log(input.threadId()).lastSeq(); // before the run: its events all come after
                    return submission.submit(input.threadId(), AgUiRunBody.of(assistantRef, input, thread), true)
                            .map(sub -> new Started(sub.run(), sub.cancelOnDisconnect(), afterSeq));
                });
    }

    /**
     * Feeds {@code sink} the run's protocol events, then ends it when the run ends; returns what stops following.
     * The run's end is the protocol's root terminal event; the classic log's end of the run (which comes after it)
     * covers a run stopped before it began, with a {@link #STOPPED} event.
     */
    Runnable follow(Started s, RunEventListener sink) {
        String runId = s.run().runId();
        AtomicBoolean ended = new AtomicBoolean();
        ThreadEventLog.Subscription[] events = new ThreadEventLog.Subscription[1];
        RunEventListener ofRun = new RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
                if (wanted(e, runId)) {
                    sink.onEvent(e);
                    endIf(e);
                }
            }

            @Override
            public void onReplay(RunEvent e) {
                if (wanted(e, runId)) {
                    sink.onReplay(e);
                    endIf(e);
                }
            }

            private void endIf(RunEvent e) {
                if (e.terminal() && ended.compareAndSet(false, true)) {
                    sink.onEnd();
                }
            }

            @Override
            public void onEnd() {
                // the thread's log closed (the thread was deleted)
                if (ended.compareAndSet(false, true)) {
                    sink.onEvent(stopped(runId, "the thread was deleted"));
                    sink.onEnd();
                }
            }
        };
        events[0] = protocol.log(s.run().threadId()).subscribeThread(s.afterSeq(), ofRun);
        RunEventListener end = new RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
            }

            @Override
            public void onEnd() {
                if (ended.compareAndSet(false, true)) {
                    sink.onEvent(stopped(runId, "the run was stopped before it started"));
                    sink.onEnd();
                }
            }
        };
        ThreadEventLog.Subscription classicEnd = classic.log(s.run().threadId()).subscribeRun(runId, Long.MAX_VALUE, end);
        if (classicEnd == null) {
            end.onEnd();
        }
        return () -> {
            events[0].cancel();
            if (classicEnd != null) {
                classicEnd.cancel();
            }
        };
    }

    /** Stops the run (its client went away and it asked for that). */
    void cancel(Started s) {
        executor.cancel(s.run(), RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
    }

    /** The events of the run that AG-UI has something for. */
    private static boolean wanted(RunEvent e, String runId) {
        if (!runId.equals(e.runId())) {
            return false;
        }
        String m = e.mode();
        return m.equals("lifecycle") || m.equals("messages") || m.equals("updates") || m.equals("values") || m.equals("input.requested")
                || m.equals("custom") || m.startsWith("custom:");
    }

    private static RunEvent stopped(String runId, String why) {
        return new RunEvent(Long.MAX_VALUE, runId, STOPPED, "", why);
    }
}
