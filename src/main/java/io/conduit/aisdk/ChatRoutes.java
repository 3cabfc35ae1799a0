package io.conduit.aisdk;

import io.conduit.http.Callers;
import io.conduit.auth.Principal;
import static io.conduit.http.RouteErrors.error;

import io.conduit.http.RequestBodies;
import io.conduit.http.SseStream;
import io.conduit.http.SseStreams;
import io.conduit.runs.InputText;
import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.Runs;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.submission.RunSubmission;
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
    private final Assistants assistants;
    private final RequestBodies bodies;
    private final SseStreams streams;

    ChatRoutes(RunSubmission submission, RunStore runs, ThreadLogs logs, Assistants assistants, RequestBodies bodies, SseStreams streams) {
        this.submission = submission;
        this.runs = runs;
        this.logs = logs;
        this.assistants = assistants;
        this.bodies = bodies;
        this.streams = streams;
    }

    void routes(@Observes Router router) {
        BodyHandler body = bodies.handler();
        router.post(BASE).handler(body).handler(ctx -> chat(ctx, null)).failureHandler(bodies::failed);
        router.post(BASE + "/:assistant_id").handler(body).handler(ctx -> chat(ctx, ctx.pathParam("assistant_id"))).failureHandler(bodies::failed);
        router.get(BASE + "/:chat_id/stream").handler(this::resume).failureHandler(bodies::failed);
        router.get(BASE + "/:assistant_id/:chat_id/stream").handler(this::resume).failureHandler(bodies::failed);
    }

    /** A turn: every check (body, assistant, thread, multitask rule) before the response's head is written. */
    private void chat(RoutingContext ctx, String assistantInPath) {
        ChatRequest request;
        try {
            request = ChatRequest.parse(RequestBodies.json(ctx), assistantInPath);
        } catch (Exception e) {
            error(ctx, e);
            return;
        }
        SseStream stream = streams.of(ctx, StreamTransport.AISDK_SSE);
        if (!stream.admit()) {
            return;
        }
        String thread = request.threadId();
        Principal caller = Callers.of(ctx);
        submission.visible(thread, caller).chain(() -> assistants.resolve(request.assistant(), caller))
                .chain(a -> assistants.graph(a).graph().state(thread)
                        .map(state -> state.isPresent() && state.get().waitsForAnswer())
                        // a thread of another graph does not read with this one's schema: the submission refuses it (409)
                        .onFailure().recoverWithItem(false))
                .chain(waiting -> submission.submit(thread, request.runBody(waiting), true, caller))
                .subscribe().with(sub -> {
                    SseSubscriber sse = follow(ctx, stream, sub.run());
                    streams.cancelOnDisconnect(sse, sub.run(), sub.cancelOnDisconnect());
                }, stream::fail);
    }

    /** {@code GET …/{chat id}/stream}: the chat's newest run in flight, replayed from its start, then live; else 204. */
    private void resume(RoutingContext ctx) {
        String thread = ctx.pathParam("chat_id");
        if (!InputText.isId(thread)) {
            ctx.response().setStatusCode(204).end();
            return;
        }
        SseStream stream = streams.of(ctx, StreamTransport.AISDK_SSE);
        submission.visible(thread, Callers.of(ctx)).chain(() -> runs.inflight(thread)).subscribe().with(inflight -> {
            Run newest = inflight.stream().max(Runs.OLDEST_FIRST).orElse(null);
            if (newest == null) {
                ctx.response().setStatusCode(204).end();
                return;
            }
            if (stream.admit()) {
                follow(ctx, stream, newest);
            }
        }, f -> error(ctx, f));
    }

    /**
     * Streams one run in the UI message stream's format ({@link UiStreamFormat}), from its start, ended with the run; a
     * run this process has not begun yet (one it is to resume) is followed once it begins.
     */
    private SseSubscriber follow(RoutingContext ctx, SseStream stream, Run run) {
        ctx.response().putHeader("x-vercel-ai-ui-message-stream", "v1");
        SseSubscriber sse = stream.subscriber(e -> true, RunEvent::data, true);
        ThreadEventLog.Subscription s = logs.log(UiStreamFormat.NAME, run.threadId())
                .followRun(run.runId(), -1, new UiStreamEnd(run.runId(), sse));
        stream.open(s::cancel);
        return sse;
    }
}
