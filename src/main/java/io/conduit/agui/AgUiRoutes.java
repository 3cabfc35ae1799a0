package io.conduit.agui;

import static io.conduit.http.RouteErrors.error;

import io.conduit.http.ApiConfig;
import io.conduit.http.RouteErrors;
import io.conduit.runs.ClientJson;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
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
    private final ServingConfig config;
    private final Vertx vertx;
    private final long maxBody;
    private final StreamPermits permits;
    private final DeliveryConfig delivery;

    AgUiRoutes(AgUiRuns runs, ServingConfig config, Vertx vertx,
               ApiConfig api, StreamPermits permits,
               DeliveryConfig delivery) {
        this.runs = runs;
        this.config = config;
        this.vertx = vertx;
        this.maxBody = api.maxBodyBytes();
        this.permits = permits;
        this.delivery = delivery;
    }

    void routes(@Observes Router router) {
        BodyHandler body = BodyHandler.create(false).setBodyLimit(maxBody);
        router.post("/ag-ui").handler(body).handler(ctx -> run(ctx, DEFAULT_ASSISTANT)).failureHandler(this::failed);
        router.post("/ag-ui/:assistant_id").handler(body).handler(ctx -> run(ctx, ctx.pathParam("assistant_id"))).failureHandler(this::failed);
    }

    private void run(RoutingContext ctx, String assistant) {
        RunAgentInput input;
        try {
            input = RunAgentInput.parse(ClientJson.parse(ctx.body().buffer() == null ? null : ctx.body().buffer().getBytes()));
        } catch (Exception e) {
            error(ctx, e);
            return;
        }
        Context context = vertx.getOrCreateContext();
        StreamPermits.Permit permit = RouteErrors.permit(ctx, permits); // before the run is created: a refused stream creates nothing
        if (permit == null) {
            return;
        }
        runs.start(assistant, input).subscribe().with(started -> {
            SseSubscriber sse = new SseSubscriber(ctx.request(), context, config.heartbeat(), delivery, e -> true, AgUiFormat::sse, true, permit)
                    .overflowFrame(b -> "data: " + AgUiEvents.runError(SlowConsumer.CODE, SlowConsumer.message(b)) + "\n\n");
            Runnable unfollow = runs.follow(started, sse);
            sse.open();
            sse.release(unfollow);
            sse.onClientGone(() -> {
                if (started.cancelOnDisconnect()) {
                    runs.cancel(started);
                }
            });
        }, f -> {
            permit.release();
            if (f instanceof AgUiRunBody.Refusal r) {
                // the protocol's own answer to a stale or missing resume: a run that errs at once, nothing written
                ctx.response().putHeader("Content-Type", "text/event-stream; charset=utf-8")
                        .end("data: " + AgUiEvents.runError(r.code, r.getMessage()) + "\n\n");
            } else {
                error(ctx, f);
            }
        });
    }

    private void failed(RoutingContext ctx) {
        RouteErrors.failed(ctx, maxBody);
    }
}
