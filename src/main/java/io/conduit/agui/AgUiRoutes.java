package io.conduit.agui;

import io.conduit.http.Callers;
import static io.conduit.http.RouteErrors.error;

import io.conduit.http.RequestBodies;
import io.conduit.http.SseStream;
import io.conduit.http.SseStreams;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamTransport;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * AG-UI over HTTP: {@code POST /ag-ui} (the default assistant, graph {@code agent}) and {@code POST /ag-ui/{assistant_id}}
 * take a {@code RunAgentInput} and answer SSE with the run's AG-UI events, LF-framed {@code data:} lines only (no
 * {@code event:}, no {@code id:}, no {@code [DONE]}). Bad input is a JSON error ({@code {detail, code}}) before
 * anything is written; a resume that does not fit the thread is a stream of one RUN_ERROR; everything after the run
 * started comes from its events. The stream goes through the shared bounded outbox ({@link SseSubscriber}): a
 * client too slow to keep up gets RUN_ERROR {@code slow_consumer} and is dropped, never buffered without bound.
 */
@ApplicationScoped
public class AgUiRoutes {

    /** The default assistant: the default agent's graph. */
    static final String DEFAULT_ASSISTANT = "agent";

    private final AgUiRuns runs;
    private final RequestBodies bodies;
    private final SseStreams streams;

    AgUiRoutes(AgUiRuns runs, RequestBodies bodies, SseStreams streams) {
        this.runs = runs;
        this.bodies = bodies;
        this.streams = streams;
    }

    void routes(@Observes Router router) {
        BodyHandler body = bodies.handler();
        router.post("/ag-ui").handler(body).handler(ctx -> run(ctx, DEFAULT_ASSISTANT)).failureHandler(bodies::failed);
        router.post("/ag-ui/:assistant_id").handler(body).handler(ctx -> run(ctx, ctx.pathParam("assistant_id"))).failureHandler(bodies::failed);
    }

    private void run(RoutingContext ctx, String assistant) {
        RunAgentInput input;
        try {
            input = RunAgentInput.parse(RequestBodies.json(ctx));
        } catch (Exception e) {
            error(ctx, e);
            return;
        }
        SseStream stream = streams.of(ctx, StreamTransport.AGUI_SSE);
        if (!stream.admit()) { // before the run is created: a refused stream creates nothing
            return;
        }
        runs.start(assistant, input, Callers.of(ctx)).subscribe().with(started -> {
            SseSubscriber sse = stream.subscriber(e -> true, AgUiFormat::sse, true)
                    .overflowFrame(b -> "data: " + AgUiEvents.runError(SlowConsumer.CODE, SlowConsumer.message(b)) + "\n\n")
                    .shutdownFrame(() -> "data: " + AgUiEvents.runError(ServerShutdown.CODE, ServerShutdown.message()) + "\n\n");
            Runnable unfollow = runs.follow(started, sse);
            stream.open(unfollow);
            sse.onClientGone(() -> {
                if (started.cancelOnDisconnect()) {
                    runs.cancel(started);
                }
            });
        }, f -> {
            if (f instanceof AgUiRunBody.Refusal r) {
                // the protocol's own answer to a stale or missing resume: a run that errs at once, nothing written
                stream.release();
                ctx.response().putHeader("Content-Type", "text/event-stream; charset=utf-8")
                        .end("data: " + AgUiEvents.runError(r.code, r.getMessage()) + "\n\n");
            } else {
                stream.fail(f);
            }
        });
    }
}
