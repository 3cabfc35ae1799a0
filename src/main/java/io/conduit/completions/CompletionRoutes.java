package io.conduit.completions;

import io.conduit.http.Callers;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.http.RequestBodies;
import io.conduit.http.RouteErrors;
import io.conduit.http.RunWaits;
import io.conduit.http.SseStream;
import io.conduit.http.SseStreams;
import io.conduit.http.answer.AnswerFormat;
import io.conduit.http.answer.RunAnswers;
import io.conduit.http.answer.TerminalGuard;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.worker.RunExecutor;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * OpenAI's chat completions in front of the assistants, on Vert.x: {@code POST /v1/chat/completions} starts a run
 * ({@link CompletionRuns}) and answers from the run's events in the thread's log, streamed through the client's
 * bounded outbox ({@link SseSubscriber}, {@link ChunkStream}) or whole ({@link RunAnswers}, {@link WholeCompletion});
 * {@code GET /v1/models} lists the assistants ({@link ModelList}). Every refusal is OpenAI's error shape
 * ({@link OpenAiError}), sent before anything is written.
 */
@ApplicationScoped
public class CompletionRoutes {

    private final CompletionRuns runs;
    private final Assistants assistants;
    private final ThreadLogs logs;
    private final RunExecutor executor;
    private final Vertx vertx;
    private final RequestBodies bodies;
    private final SseStreams streams;
    private final RunAnswers answers;
    private final RunWaits waits;

    CompletionRoutes(CompletionRuns runs, Assistants assistants, ThreadLogs logs, RunExecutor executor, Vertx vertx,
                     RequestBodies bodies, SseStreams streams, RunAnswers answers, RunWaits waits) {
        this.runs = runs;
        this.assistants = assistants;
        this.logs = logs;
        this.executor = executor;
        this.vertx = vertx;
        this.bodies = bodies;
        this.streams = streams;
        this.answers = answers;
        this.waits = waits;
    }

    void routes(@Observes Router router) {
        BodyHandler body = bodies.handler();
        router.post("/v1/chat/completions").handler(body).handler(this::complete).failureHandler(this::failed);
        router.get("/v1/models").handler(this::models).failureHandler(this::failed);
        router.get("/v1/models/:model").handler(this::model).failureHandler(this::failed);
    }

    private void complete(RoutingContext ctx) {
        ChatRequest request;
        try {
            JsonNode body = RequestBodies.json(ctx);
            request = ChatRequest.parse(body, ctx.request().getHeader(ChatRequest.THREAD_HEADER));
        } catch (Exception e) {
            write(ctx, OpenAiError.of(e));
            return;
        }
        if (request.stream()) {
            SseStream stream = streams.of(ctx, StreamTransport.CHAT_COMPLETIONS_SSE);
            // before the run is created: a refused stream creates nothing
            if (!stream.admit(p -> write(ctx, new OpenAiError(429, "rate_limit_error", StreamPermits.CODE, null, p.refusal(), p.retryAfterSeconds())))) {
                return;
            }
            runs.start(request, true, Callers.of(ctx)).subscribe().with(sub -> stream(ctx, stream, request, sub), f -> {
                stream.release();
                write(ctx, OpenAiError.of(f));
            });
        } else {
            // a wait for the answer holds a connection as a stream does: bounded with them, ended by a drain
            StreamPermits.Permit permit = waits.open();
            if (permit == null) {
                write(ctx, OpenAiError.of(waits.refusal()));
                return;
            }
            Context context = vertx.getOrCreateContext();
            runs.start(request, false, Callers.of(ctx)).subscribe().with(sub -> whole(ctx, context, request, sub, permit), f -> {
                permit.release();
                write(ctx, OpenAiError.of(f));
            });
        }
    }

    private void stream(RoutingContext ctx, SseStream stream, ChatRequest request, RunSubmission.Submitted sub) {
        Run run = sub.run();
        headers(ctx.response(), sub);
        SseSubscriber sse = stream.subscriber(e -> true,
                new ChunkStream(CompletionJson.of(run.runId(), request.model()), request.includeUsage()), true);
        TerminalGuard guarded = new TerminalGuard(run.runId(), sse);
        ThreadEventLog.Subscription s = logs.log(AnswerFormat.NAME, run.threadId()).subscribeRun(run.runId(), -1, guarded);
        stream.open(s == null ? null : s::cancel);
        if (s == null) {
            guarded.onEnd(); // not reached: the submission opened the run's segment
        }
        streams.cancelOnDisconnect(sse, run, sub.cancelOnDisconnect());
    }

    private void whole(RoutingContext ctx, Context context, ChatRequest request, RunSubmission.Submitted sub, StreamPermits.Permit permit) {
        Run run = sub.run();
        HttpServerResponse resp = ctx.response();
        headers(resp, sub);
        // the handler before the answer: a response ended at once (pieces failing synchronously) takes no handler
        io.smallrye.mutiny.subscription.Cancellable[] reading = new io.smallrye.mutiny.subscription.Cancellable[1];
        resp.closeHandler(v -> {
            if (reading[0] != null) {
                reading[0].cancel();
            }
            cancelIfAsked(sub);
        });
        reading[0] = waits.untilEnd(permit, answers.pieces(run, context)).subscribe().with(pieces -> {
            WholeCompletion.Answer answer = WholeCompletion.answer(pieces, CompletionJson.of(run.runId(), request.model()));
            if (answer.error() != null) {
                write(ctx, answer.error());
            } else if (!resp.ended() && !resp.closed()) {
                resp.putHeader("Content-Type", "application/json").end(answer.completion());
            }
        }, f -> {
            OpenAiError error = OpenAiError.of(f);
            if (ServerShutdown.CODE.equals(error.code())) {
                // the run would be handed back and answered elsewhere, where this request cannot read it, and OpenAI's
                // SDKs send a 503 again by themselves: roll the run back first, so that the retry runs the turn once
                executor.cancel(run, RunExecutor.StopReason.ROLLBACK).subscribe().with(x -> write(ctx, error), g -> write(ctx, error));
            } else {
                write(ctx, error);
            }
        });
        if (resp.closed()) { // the client left while the run was created: no close event comes for it
            reading[0].cancel();
            cancelIfAsked(sub);
        }
    }

    /** The conversation's thread and where its run is, for a call with a conversation (a temporary thread goes with its run). */
    private static void headers(HttpServerResponse resp, RunSubmission.Submitted sub) {
        Run run = sub.run();
        if (!run.spec().temporary()) {
            resp.putHeader(ChatRequest.THREAD_HEADER, run.threadId());
            resp.putHeader("Content-Location", "/threads/" + run.threadId() + "/runs/" + run.runId());
        }
    }

    private void cancelIfAsked(RunSubmission.Submitted sub) {
        if (sub.cancelOnDisconnect()) {
            executor.cancel(sub.run(), RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
        }
    }

    private void models(RoutingContext ctx) {
        ModelList.of(assistants, Callers.of(ctx)).subscribe().with(json -> ctx.response().putHeader("Content-Type", "application/json").end(json),
                f -> write(ctx, OpenAiError.of(f)));
    }

    private void model(RoutingContext ctx) {
        String id = ctx.pathParam("model");
        assistants.resolve(id, Callers.of(ctx)).subscribe().with(a -> {
            if (!CompletionRuns.chats(assistants.graph(a))) {
                write(ctx, OpenAiError.modelNotFound(id)); // not a model: it is not listed either
                return;
            }
            ctx.response().putHeader("Content-Type", "application/json").end(JsonCodec.MAPPER.createObjectNode().put("id", id).put("object", "model")
                    .put("created", a.createdAt().getEpochSecond()).put("owned_by", a.graphId()).toString());
        }, f -> write(ctx, f instanceof io.conduit.runs.NotFoundException ? OpenAiError.modelNotFound(id) : OpenAiError.of(f)));
    }

    private void failed(RoutingContext ctx) {
        if (ctx.statusCode() == 413) {
            write(ctx, new OpenAiError(413, OpenAiError.INVALID_REQUEST, "body_too_large", null,
                    "The request body is larger than " + bodies.limit() + " bytes.", 0));
        } else if (ctx.failure() != null) {
            write(ctx, OpenAiError.of(ctx.failure()));
        } else {
            write(ctx, new OpenAiError(ctx.statusCode(), OpenAiError.INVALID_REQUEST, "http_" + ctx.statusCode(), null, "The request failed.", 0));
        }
    }

    private static void write(RoutingContext ctx, OpenAiError e) {
        RouteErrors.write(ctx, e.status(), e.retryAfterSeconds(), e.json());
    }
}
