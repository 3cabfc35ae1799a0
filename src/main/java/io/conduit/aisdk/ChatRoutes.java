package io.conduit.aisdk;

import static io.conduit.http.RouteErrors.error;

import io.conduit.http.ApiConfig;
import io.conduit.http.RouteErrors;
import io.conduit.runs.ClientJson;
import io.conduit.runs.Assistants;
import io.conduit.runs.InputText;
import io.conduit.runs.Run;
import io.conduit.runs.RunEvent;
import io.conduit.runs.RunExecutor;
import io.conduit.runs.RunStore;
import io.conduit.runs.RunSubmission;
import io.conduit.runs.Runs;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.ThreadEventLog;
import io.conduit.runs.ThreadLogs;
import io.conduit.runs.delivery.DeliveryConfig;
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
 * The Vercel AI SDK's front door, for {@code useChat} and its {@code DefaultChatTransport}: {@code POST /ai-sdk/chat}
 * (and {@code /ai-sdk/chat/{assistant_id}}) puts the user's new message on the chat's thread as an ordinary run
 * ({@link RunSubmission}: the same records, multitask rules and logs as the Agent Server API) and answers that run as a
 * UI message stream ({@link UiMessageStream}); {@code GET …/{chat id}/stream} resumes the chat's run in flight from
 * its start (204 when there is none). Delivery is the shared bounded outbox ({@link SseSubscriber}).
 */
@ApplicationScoped
public class ChatRoutes {

    static final String BASE = "/ai-sdk/chat";

    private final RunSubmission submission;
    private final RunStore runs;
    private final ThreadLogs logs;
    private final RunExecutor executor;
    private final Assistants assistants;
    private final ServingConfig config;
    private final Vertx vertx;
    private final long maxBody;
    private final StreamPermits permits;
    private final DeliveryConfig delivery;

    ChatRoutes(RunSubmission submission, RunStore runs, ThreadLogs logs, RunExecutor executor,
               Assistants assistants, ServingConfig config, Vertx vertx,
               ApiConfig api, StreamPermits permits,
               DeliveryConfig delivery) {
        this.submission = submission;
        this.runs = runs;
        this.logs = logs;
        this.executor = executor;
        this.assistants = assistants;
        this.config = config;
        this.vertx = vertx;
        this.maxBody = api.maxBodyBytes();
        this.permits = permits;
        this.delivery = delivery;
    }

    void routes(@Observes Router router) {
        BodyHandler body = BodyHandler.create(false).setBodyLimit(maxBody);
        router.post(BASE).handler(body).handler(ctx -> chat(ctx, null)).failureHandler(this::failed);
        router.post(BASE + "/:assistant_id").handler(body).handler(ctx -> chat(ctx, ctx.pathParam("assistant_id"))).failureHandler(this::failed);
        router.get(BASE + "/:chat_id/stream").handler(this::resume).failureHandler(this::failed);
        router.get(BASE + "/:assistant_id/:chat_id/stream").handler(this::resume).failureHandler(this::failed);
    }

    /** A turn: every check (body, assistant, thread, multitask rule) before the response's head is written. */
    private void chat(RoutingContext ctx, String assistantInPath) {
        ChatRequest request;
        try {
            request = ChatRequest.parse(ClientJson.parse(ctx.body().buffer() == null ? null : ctx.body().buffer().getBytes()), assistantInPath);
        } catch (Exception e) {
            error(ctx, e);
            return;
        }
        Context context = vertx.getOrCreateContext();
        StreamPermits.Permit permit = permit(ctx);
        if (permit == null) {
            return;
        }
        String thread = request.threadId();
        assistants.resolve(request.assistant())
                .chain(a -> assistants.graph(a).graph().state(thread)
                        .map(state -> state.isPresent() && state.get().waitsForAnswer())
                        // a thread of another graph does not read with this one's schema: the submission refuses it (409)
                        .onFailure().recoverWithItem(false))
                .chain(waiting -> submission.submit(thread, request.runBody(waiting), true))
                .subscribe().with(sub -> {
                    SseSubscriber sse = follow(ctx, context, sub.run(), permit);
                    sse.onClientGone(() -> {
                        if (sub.cancelOnDisconnect()) {
                            executor.cancel(sub.run(), RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
                        }
                    });
                }, f -> {
                    permit.release();
                    error(ctx, f);
                });
    }

    /** {@code GET …/{chat id}/stream}: the chat's newest run in flight, replayed from its start, then live; else 204. */
    private void resume(RoutingContext ctx) {
        String thread = ctx.pathParam("chat_id");
        if (!InputText.isId(thread)) {
            ctx.response().setStatusCode(204).end();
            return;
        }
        Context context = vertx.getOrCreateContext();
        runs.inflight(thread).subscribe().with(inflight -> {
            Run newest = inflight.stream().max(Runs.OLDEST_FIRST).orElse(null);
            if (newest == null) {
                ctx.response().setStatusCode(204).end();
                return;
            }
            StreamPermits.Permit permit = permit(ctx);
            if (permit != null) {
                follow(ctx, context, newest, permit);
            }
        }, f -> error(ctx, f));
    }

    /**
     * Streams one run in the UI message stream's format ({@link UiStreamFormat}), from its start, ended with the run; a
     * run this process has not begun yet (one it is to resume) is followed once it begins.
     */
    private SseSubscriber follow(RoutingContext ctx, Context context, Run run, StreamPermits.Permit permit) {
        ctx.response().putHeader("x-vercel-ai-ui-message-stream", "v1");
        SseSubscriber sse = new SseSubscriber(ctx.request(), context, config.heartbeat(), delivery, e -> true, RunEvent::data, true, permit);
        ThreadEventLog.Subscription s = logs.log(UiStreamFormat.NAME, run.threadId())
                .followRun(run.runId(), -1, new UiStreamEnd(run.runId(), sse));
        sse.open();
        sse.release(s::cancel);
        return sse;
    }


    private StreamPermits.Permit permit(RoutingContext ctx) {
        return RouteErrors.permit(ctx, permits);
    }

    private void failed(RoutingContext ctx) {
        RouteErrors.failed(ctx, maxBody);
    }
}
