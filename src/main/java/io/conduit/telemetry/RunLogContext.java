package io.conduit.telemetry;

import io.conduit.runs.Run;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import org.jboss.logging.MDC;

/**
 * A run's own Vert.x context: a duplicated context of the event loop it starts on, holding the run's ids in the log's
 * MDC ({@code run_id}, {@code thread_id}, {@code assistant_id}) and its span as the current trace context. Quarkus keeps
 * both in the duplicated context's data, and the callbacks of what the run does there (database replies, timers) run
 * on it again: every log line of the run carries its ids without code in the stages. Off an event loop (unit tests)
 * the ids are set for the task only.
 */
final class RunLogContext {

    static final String RUN_ID = "run_id";
    static final String THREAD_ID = "thread_id";
    static final String ASSISTANT_ID = "assistant_id";

    void within(Run run, String graphId, Span span, Runnable task) {
        io.vertx.core.Context current = Vertx.currentContext();
        if (current == null) {
            put(run, graphId);
            try {
                task.run();
            } finally {
                MDC.remove(RUN_ID);
                MDC.remove(THREAD_ID);
                MDC.remove(ASSISTANT_ID);
            }
            return;
        }
        ContextInternal own = (ContextInternal) VertxContext.createNewDuplicatedContext(current);
        own.dispatch(null, v -> {
            put(run, graphId);
            // left current on purpose: the context is the run's alone and is dropped with it
            @SuppressWarnings({"resource", "unused"})
            var scope = Context.current().with(span).makeCurrent();
            task.run();
        });
    }

    private static void put(Run run, String graphId) {
        MDC.put(RUN_ID, run.runId());
        MDC.put(THREAD_ID, run.threadId());
        MDC.put(ASSISTANT_ID, run.assistantId() != null ? run.assistantId() : graphId);
    }
}
