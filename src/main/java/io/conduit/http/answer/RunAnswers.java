package io.conduit.http.answer;

import io.conduit.runs.Run;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's answer read whole, for a door that answers once the run has ended (a chat completion without
 * {@code stream}, an MCP tool call): the run's pieces in the answer format ({@link AnswerFormat}) are kept as they
 * come (the log's own frames, nothing made on the run's thread) and joined once it has ended, on the request's context.
 * Cancelling the answer (its client went away) ends the subscription; the run goes on unless it asked otherwise.
 */
@ApplicationScoped
public class RunAnswers {

    private final ThreadLogs logs;

    RunAnswers(ThreadLogs logs) {
        this.logs = logs;
    }

    /** The pieces of {@code run}'s answer, once it has ended, told on {@code context}. */
    public Uni<List<RunEvent>> pieces(Run run, Context context) {
        return Uni.createFrom().emitter(em -> {
            List<RunEvent> pieces = new ArrayList<>();
            RunEventListener collector = new RunEventListener() {
                @Override
                public void onEvent(RunEvent e) {
                    pieces.add(e);
                }

                @Override
                public void onEnd() {
                    context.runOnContext(v -> em.complete(pieces));
                }
            };
            TerminalGuard guarded = new TerminalGuard(run.runId(), collector);
            ThreadEventLog.Subscription s = logs.log(AnswerFormat.NAME, run.threadId()).subscribeRun(run.runId(), -1, guarded);
            if (s == null) {
                guarded.onEnd(); // not reached: the submission opened the run's segment
            } else {
                em.onTermination(s::cancel);
            }
        });
    }

    /** {@link #pieces} read as one answer. */
    public Uni<WholeAnswer> whole(Run run, Context context) {
        return pieces(run, context).map(WholeAnswer::of);
    }
}
