package io.conduit.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.auth.Principal;
import io.conduit.http.Callers;
import io.conduit.http.ErrorBody;
import io.conduit.http.RequestBodies;
import io.conduit.http.RouteErrors;
import io.conduit.http.RunsEndedElsewhere;
import io.conduit.http.SseStream;
import io.conduit.http.SseStreams;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.submission.RunSubmission;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A2A's front door on Vert.x: {@code GET /.well-known/agent-card.json?assistant_id=} (the assistant's
 * {@link AgentCard}) and {@code POST /a2a/{assistant_id}}, JSON-RPC 2.0: {@code message/send} (a run on the
 * message's context, answered as the Task it ends as: {@link TaskAnswer}), {@code message/stream} (the same run's
 * task events over SSE, through the shared bounded outbox), {@code tasks/get} and {@code tasks/cancel}
 * ({@link A2aTasks}), and {@code tasks/resubscribe} (a task in flight streamed again). Every refusal is a JSON-RPC
 * error object ({@link JsonRpcError}), sent before anything is written.
 */
@ApplicationScoped
public class A2aRoutes {

    static final String BASE = "/a2a";

    /** A2A methods this door knows of and does not offer: "unsupported operation", not "method not found". */
    private static final Set<String> UNSUPPORTED = Set.of("tasks/pushNotificationConfig/set",
            "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete",
            "agent/getAuthenticatedExtendedCard");

    private final A2aTasks tasks;
    private final RunSubmission submission;
    private final ThreadLogs logs;
    private final Vertx vertx;
    private final RequestBodies bodies;
    private final SseStreams streams;
    private final RunsEndedElsewhere endedElsewhere;
    private final String version;

    A2aRoutes(A2aTasks tasks, RunSubmission submission, ThreadLogs logs, Vertx vertx, RequestBodies bodies, SseStreams streams,
              RunsEndedElsewhere endedElsewhere, @ConfigProperty(name = "quarkus.application.version") String version) {
        this.tasks = tasks;
        this.submission = submission;
        this.logs = logs;
        this.vertx = vertx;
        this.bodies = bodies;
        this.streams = streams;
        this.endedElsewhere = endedElsewhere;
        this.version = version;
    }

    void routes(@Observes Router router) {
        router.get("/.well-known/agent-card.json").handler(this::card).failureHandler(bodies::failed);
        router.post(BASE + "/:assistant_id").handler(bodies.handler()).handler(this::call).failureHandler(this::failed);
    }

    /** The agent card of {@code ?assistant_id=}: 400 without one, 404 for an assistant the caller does not see. */
    private void card(RoutingContext ctx) {
        String ref = ctx.request().getParam("assistant_id");
        if (ref == null || ref.isEmpty()) {
            RouteErrors.write(ctx, new ErrorBody(400, "assistant_id_required",
                    "name the assistant: /.well-known/agent-card.json?assistant_id=<assistant id or graph id>"));
            return;
        }
        String host = ctx.request().getHeader("Host");
        String base = ctx.request().scheme() + "://" + (host == null ? "localhost" : host);
        tasks.assistant(ref, Callers.of(ctx)).subscribe().with(
                a -> ctx.response().putHeader("Content-Type", "application/json").end(AgentCard.of(a, base, version).toString()),
                f -> {
                    JsonRpcError e = JsonRpcError.of(f);
                    int status = e.code() == JsonRpcError.SERVER_ERROR ? 404 : 400;
                    RouteErrors.write(ctx, new ErrorBody(status, status == 404 ? "assistant_not_found" : "not_a_chat", e.getMessage()));
                });
    }

    /** One JSON-RPC call: read, checked, then handed to its method. */
    private void call(RoutingContext ctx) {
        JsonNode body;
        try {
            body = RequestBodies.json(ctx);
        } catch (JsonProcessingException e) {
            reply(ctx, NullNode.getInstance(), new JsonRpcError(JsonRpcError.PARSE_ERROR, "Parse error: " + e.getOriginalMessage()));
            return;
        } catch (RuntimeException e) {
            reply(ctx, NullNode.getInstance(), new JsonRpcError(JsonRpcError.PARSE_ERROR, "Parse error: " + ErrorBody.of(e).detail()));
            return;
        }
        JsonRpcCall call;
        try {
            call = JsonRpcCall.of(body);
        } catch (JsonRpcError e) {
            reply(ctx, JsonRpcCall.idOf(body), e);
            return;
        }
        String ref = ctx.pathParam("assistant_id");
        Principal caller = Callers.of(ctx);
        try {
            switch (call.method()) {
                case "message/send" -> send(ctx, call, ref, caller);
                case "message/stream" -> stream(ctx, call, ref, caller);
                case "tasks/get" -> get(ctx, call, ref, caller);
                case "tasks/cancel" -> cancel(ctx, call, ref, caller);
                case "tasks/resubscribe" -> resubscribe(ctx, call, ref, caller);
                default -> throw UNSUPPORTED.contains(call.method())
                        ? new JsonRpcError(JsonRpcError.UNSUPPORTED_OPERATION, "This operation is not supported: " + call.method())
                        : new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + call.method()
                                + " (this agent answers message/send, message/stream, tasks/get, tasks/cancel and tasks/resubscribe)");
            }
        } catch (RuntimeException e) {
            reply(ctx, call.id(), JsonRpcError.of(e));
        }
    }

    /** {@code message/send}: the run on the message's context, answered once it ends (or asks) as its Task. */
    private void send(RoutingContext ctx, JsonRpcCall call, String ref, Principal caller) {
        SentMessage m = SentMessage.of(call.requireParams());
        Context context = vertx.getOrCreateContext();
        start(m, ref, caller, false).subscribe().with(sub -> {
            Run run = sub.run();
            HttpServerResponse resp = ctx.response();
            ThreadEventLog.Subscription[] s = new ThreadEventLog.Subscription[1];
            resp.closeHandler(v -> {
                if (s[0] != null) {
                    s[0].cancel();
                }
            });
            s[0] = logs.log(A2aFormat.NAME, run.threadId()).followRun(run.runId(), -1,
                    new A2aStreamEnd(run.runId(), run.threadId(), new TaskAnswer(context, task -> result(ctx, call.id(), task))));
        }, f -> reply(ctx, call.id(), JsonRpcError.of(f)));
    }

    /** {@code message/stream}: the same run, its task events as SSE, each a JSON-RPC response to this call. */
    private void stream(RoutingContext ctx, JsonRpcCall call, String ref, Principal caller) {
        SentMessage m = SentMessage.of(call.requireParams());
        SseStream stream = streams.of(ctx, StreamTransport.A2A_SSE);
        // before the run is created: a refused stream creates nothing
        if (!admit(ctx, call, stream)) {
            return;
        }
        start(m, ref, caller, true).subscribe().with(sub -> {
            Run run = sub.run();
            SseSubscriber sse = stream.subscriber(e -> true, frame(call), true);
            ThreadEventLog.Subscription s = logs.log(A2aFormat.NAME, run.threadId())
                    .followRun(run.runId(), -1, new A2aStreamEnd(run.runId(), run.threadId(), sse));
            stream.open(s::cancel);
            streams.cancelOnDisconnect(sse, run, sub.cancelOnDisconnect());
        }, f -> {
            stream.release();
            reply(ctx, call.id(), JsonRpcError.of(f));
        });
    }

    /**
     * {@code tasks/resubscribe}: a client whose stream of a task in flight was cut reads the task again, from its start
     * (the task first, as {@code message/stream} began, then every update so far and the rest as they come), so the
     * artifacts it rebuilds are whole, on whichever replica executes the run. A task waiting for input is sent as it
     * stands and the stream ends; one that ended cannot be subscribed to (unsupported operation, as A2A has it:
     * {@code tasks/get} reads it).
     */
    private void resubscribe(RoutingContext ctx, JsonRpcCall call, String ref, Principal caller) {
        String taskId = A2aTasks.taskId(call.requireParams());
        SseStream stream = streams.of(ctx, StreamTransport.A2A_SSE);
        if (!admit(ctx, call, stream)) {
            return;
        }
        Context context = vertx.getOrCreateContext();
        tasks.assistant(ref, caller).chain(a -> tasks.task(taskId, a, caller)).subscribe().with(run -> {
            if (run.status().finished()) {
                stream.release();
                tasks.read(run, context, task -> ended(ctx, call.id(), task));
                return;
            }
            SseSubscriber sse = stream.subscriber(e -> true, frame(call), true);
            ThreadEventLog log = logs.log(A2aFormat.NAME, run.threadId());
            ThreadEventLog.Subscription s = log.followRun(run.runId(), -1, new A2aStreamEnd(run.runId(), run.threadId(), sse));
            stream.open(s::cancel);
            if (!log.holds(run.runId())) {
                // it ends without a frame here (cancelled before it began, say): the task from its record ends the stream
                endedElsewhere.watch(run, log, s, sse::closed, now -> tasks.read(now, context, task -> {
                    sse.onEvent(new RunEvent(Long.MAX_VALUE, now.runId(), A2aEvents.END, "", task.toString()));
                    sse.onEnd();
                }));
            }
        }, f -> {
            stream.release();
            reply(ctx, call.id(), JsonRpcError.of(f));
        });
    }

    /** A resubscription to a task no longer in flight: one waiting for input as one event; an ended one refused. */
    private static void ended(RoutingContext ctx, JsonNode id, ObjectNode task) {
        String state = task.path("status").path("state").asText();
        if (!A2aJson.INPUT_REQUIRED.equals(state)) {
            reply(ctx, id, new JsonRpcError(JsonRpcError.UNSUPPORTED_OPERATION, "Task " + task.path("id").asText()
                    + " is in a terminal state (" + state + ") and cannot be subscribed to: read it with tasks/get"));
            return;
        }
        ctx.response().putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache")
                .end("data: " + response(id, task) + "\n\n");
    }

    /** A stream permit, or the client told (a JSON-RPC error) that this replica has none left. */
    private static boolean admit(RoutingContext ctx, JsonRpcCall call, SseStream stream) {
        return stream.admit(p -> reply(ctx, call.id(), new JsonRpcError(JsonRpcError.SERVER_ERROR, p.refusal(),
                JsonCodec.MAPPER.createObjectNode().put("status", 429).put("code", StreamPermits.CODE))));
    }

    /** A task event as SSE: a JSON-RPC response to the call, the event its result. */
    private static Function<RunEvent, String> frame(JsonRpcCall call) {
        String head = "data: {\"jsonrpc\":\"2.0\",\"id\":" + call.id() + ",\"result\":";
        return e -> head + e.data() + "}\n\n";
    }

    /** Every check (assistant, task, context, multitask rule) before the run is written. */
    private io.smallrye.mutiny.Uni<RunSubmission.Submitted> start(SentMessage m, String ref, Principal caller, boolean streaming) {
        return tasks.assistant(ref, caller).chain(a -> tasks.contextOf(m, a, caller)
                .chain(thread -> tasks.waiting(a, thread)
                        .chain(waiting -> submission.submit(thread, m.runBody(a.assistantId(), waiting), streaming, caller))));
    }

    private void get(RoutingContext ctx, JsonRpcCall call, String ref, Principal caller) {
        String taskId = A2aTasks.taskId(call.requireParams());
        Context context = vertx.getOrCreateContext();
        tasks.assistant(ref, caller).chain(a -> tasks.task(taskId, a, caller)).subscribe().with(
                run -> tasks.read(run, context, task -> result(ctx, call.id(), task)),
                f -> reply(ctx, call.id(), JsonRpcError.of(f)));
    }

    private void cancel(RoutingContext ctx, JsonRpcCall call, String ref, Principal caller) {
        String taskId = A2aTasks.taskId(call.requireParams());
        tasks.assistant(ref, caller).chain(a -> tasks.task(taskId, a, caller)).chain(tasks::cancel).subscribe().with(
                task -> result(ctx, call.id(), task), f -> reply(ctx, call.id(), JsonRpcError.of(f)));
    }

    /** A body past {@code conduit.api.max-body-bytes}, or a failure of the route, as a JSON-RPC error. */
    private void failed(RoutingContext ctx) {
        if (ctx.statusCode() == 413) {
            write(ctx, 413, new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid Request: the body is larger than "
                    + bodies.limit() + " bytes").response(NullNode.getInstance()));
        } else {
            reply(ctx, NullNode.getInstance(), ctx.failure() != null ? JsonRpcError.of(ctx.failure())
                    : new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Internal error: the request failed (" + ctx.statusCode() + ")"));
        }
    }

    private static void result(RoutingContext ctx, JsonNode id, ObjectNode result) {
        write(ctx, 200, response(id, result).toString());
    }

    /** A JSON-RPC response that answers call {@code id} with {@code result}. */
    private static ObjectNode response(JsonNode id, ObjectNode result) {
        ObjectNode r = JsonCodec.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        r.set("result", result);
        return r;
    }

    /** A JSON-RPC error is an answer like any other: HTTP 200, the error in the body. */
    private static void reply(RoutingContext ctx, JsonNode id, JsonRpcError e) {
        write(ctx, 200, e.response(id));
    }

    private static void write(RoutingContext ctx, int status, String json) {
        RouteErrors.write(ctx, status, 0, json);
    }
}
