package io.conduit.api;

import io.conduit.http.RunWaits;
import io.conduit.http.RunsEndedElsewhere;
import io.conduit.http.Callers;
import static io.conduit.http.RouteErrors.error;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.http.RequestBodies;
import io.conduit.http.SseStream;
import io.conduit.http.SseStreams;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InputText;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.StreamMode;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.submission.JsonFields;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.wire.WireState;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * The Agent Server's streaming endpoints, on Vert.x directly (SSE framing, headers and heartbeats are ours to
 * control): create a run and stream it, wait for it, join a run's stream or a thread's. Each subscribes to the
 * thread's event log; none runs anything itself.
 */
@ApplicationScoped
public class StreamRoutes {

    private final RunSubmission submission;
    private final RunStore runs;
    private final ThreadStore threads;
    private final RunEventLogs logs;
    private final RunExecutor executor;
    private final Assistants assistants;
    private final ServingConfig config;
    private final Vertx vertx;
    private final RequestBodies bodies;
    private final SseStreams streams;
    private final RunWaits waits;
    private final RunsEndedElsewhere endedElsewhere;

    StreamRoutes(RunSubmission submission, RunStore runs, ThreadStore threads, RunEventLogs logs, RunExecutor executor, Assistants assistants,
                 ServingConfig config, Vertx vertx, RequestBodies bodies, SseStreams streams, RunWaits waits,
                 RunsEndedElsewhere endedElsewhere) {
        this.submission = submission;
        this.runs = runs;
        this.threads = threads;
        this.logs = logs;
        this.executor = executor;
        this.assistants = assistants;
        this.config = config;
        this.vertx = vertx;
        this.bodies = bodies;
        this.streams = streams;
        this.waits = waits;
        this.endedElsewhere = endedElsewhere;
    }

    void routes(@Observes Router router) {
        BodyHandler body = bodies.handler();
        router.post("/threads/:thread_id/runs/stream").handler(body).handler(ctx -> stream(ctx, ctx.pathParam("thread_id"))).failureHandler(bodies::failed);
        router.post("/runs/stream").handler(body).handler(ctx -> stream(ctx, null)).failureHandler(bodies::failed);
        router.post("/threads/:thread_id/runs/wait").handler(body).handler(ctx -> await(ctx, ctx.pathParam("thread_id"))).failureHandler(bodies::failed);
        router.post("/runs/wait").handler(body).handler(ctx -> await(ctx, null)).failureHandler(bodies::failed);
        router.get("/threads/:thread_id/runs/:run_id/stream").handler(this::join).failureHandler(bodies::failed);
        router.get("/threads/:thread_id/stream").handler(this::joinThread).failureHandler(bodies::failed);
    }

    private void stream(RoutingContext ctx, String threadId) {
        JsonNode body = body(ctx);
        if (body == null) {
            return;
        }
        SseStream stream = streams.of(ctx, StreamTransport.CLASSIC_SSE);
        if (!stream.admit()) { // before the run is created: a refused stream creates nothing
            return;
        }
        submission.submit(threadId, body, true, Callers.of(ctx)).subscribe().with(sub -> {
            Run run = sub.run();
            String base = threadId == null ? "/runs/" + run.runId() : "/threads/" + threadId + "/runs/" + run.runId();
            HttpServerResponse resp = ctx.response();
            resp.putHeader("Content-Location", base);
            resp.putHeader("Location", "/threads/" + run.threadId() + "/runs/" + run.runId() + "/stream?stream_mode="
                    + URLEncoder.encode(JsonCodec.MAPPER.valueToTree(run.spec().modes()).toString(), StandardCharsets.UTF_8));
            SseSubscriber sse = sse(stream, run.spec().modes(), sub.subgraphs(), true);
            ThreadEventLog.Subscription s = logs.log(run.threadId()).subscribeRun(run.runId(), -1, sse);
            stream.open(s == null ? null : s::cancel);
            streams.cancelOnDisconnect(sse, run, sub.cancelOnDisconnect());
        }, stream::fail);
    }

    /**
     * {@code runs/wait}: newline keep-alives while the run goes, then its final values as JSON; when the replica drains
     * first, {@code {"__error__": {"error": "server_shutting_down"}}} (the run goes on elsewhere: join it by the id in
     * {@code Content-Location}).
     */
    private void await(RoutingContext ctx, String threadId) {
        JsonNode body = body(ctx);
        if (body == null) {
            return;
        }
        StreamPermits.Permit permit = waits.open();
        if (permit == null) { // before the run is created: a refused wait creates nothing
            error(ctx, waits.refusal());
            return;
        }
        submission.submit(threadId, body, false, Callers.of(ctx)).subscribe().with(sub -> {
            Run run = sub.run();
            HttpServerResponse resp = ctx.response();
            resp.setChunked(true).putHeader("Content-Type", "application/json")
                    .putHeader("Content-Location", threadId == null ? "/runs/" + run.runId() : "/threads/" + threadId + "/runs/" + run.runId());
            resp.writeHead();
            long keepAlive = vertx.setPeriodic(5_000, id -> resp.write("\n"));
            ThreadEventLog.Subscription[] s = new ThreadEventLog.Subscription[1];
            // before subscribing: a run that has already ended is answered (and the response ended) by the replay
            Context here = Vertx.currentContext();
            resp.closeHandler(v -> {
                vertx.cancelTimer(keepAlive);
                permit.release();
                if (s[0] != null) {
                    s[0].cancel();
                }
                if (sub.cancelOnDisconnect() && !resp.ended()) { // not when this replica ended it for a drain
                    executor.cancel(run, RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
                }
            });
            s[0] = logs.log(run.threadId()).subscribeRun(run.runId(), -1, new RunOutcome(outcome -> {
                vertx.cancelTimer(keepAlive);
                permit.release();
                resp.end(outcome.answer().toString());
            }));
            permit.onShutdown(() -> here.runOnContext(x -> {
                if (!resp.ended() && !resp.closed()) {
                    vertx.cancelTimer(keepAlive);
                    s[0].cancel();
                    permit.release(); // a kept-alive connection outlives the response: its close handler may never run
                    resp.end(shuttingDown().toString());
                }
            }));
        }, f -> {
            permit.release();
            error(ctx, f);
        });
    }

    /** What {@code runs/wait} ends with when the replica drains under it: an error its client reads as such. */
    private static JsonNode shuttingDown() {
        var out = JsonCodec.MAPPER.createObjectNode();
        out.putObject("__error__").put("error", ServerShutdown.CODE).put("message", ServerShutdown.message());
        return out;
    }

    private void join(RoutingContext ctx) {
        String threadId = ctx.pathParam("thread_id");
        String runId = ctx.pathParam("run_id");
        long after = lastEventId(ctx, -1L);
        List<StreamMode> asked;
        boolean cancel;
        try {
            asked = RunSubmissionModes.parse(ctx.queryParam("stream_mode"));
            cancel = JsonFields.flag(ctx.request().getParam("cancel_on_disconnect"), "cancel_on_disconnect", false);
        } catch (RuntimeException e) {
            error(ctx, e); // checked before the lookup: thrown in its callback, it would be dropped and the request hang
            return;
        }
        SseStream stream = streams.of(ctx, StreamTransport.CLASSIC_SSE);
        if (!stream.admit()) {
            return;
        }
        runs.get(runId).subscribe().with(found -> {
            if (found.isEmpty() || !found.get().threadId().equals(threadId)) {
                stream.fail(new NotFoundException("Run " + runId + " not found on thread " + threadId));
                return;
            }
            Run run = found.get();
            List<StreamMode> modes = asked != null ? asked : run.spec().modes();
            ctx.response().putHeader("Location", ctx.request().uri());
            SseSubscriber sse = sse(stream, modes, true, true);
            JoinEnd join = new JoinEnd(sse, () -> finalValues(run, sse));
            boolean finished = run.status().finished();
            // a run in flight that this process has no events of yet (it is to resume it after a restart, or another
            // replica executes it) is followed from its beginning here; so is a finished one it holds no events of,
            // when replicas share frames (asked of the replica that executed it); else it is answered from the checkpoints
            boolean follow = !finished || logs.entries().shared();
            ThreadEventLog log = follow ? logs.log(threadId) : logs.find(threadId);
            ThreadEventLog.Subscription s = log == null || !finished ? null : log.subscribeRun(runId, after, join);
            if (s == null && follow) {
                s = log.followRun(runId, after, join);
            }
            stream.open(s == null ? null : s::cancel);
            if (s == null) {
                finalValues(run, sse);
                return;
            }
            if (!finished || !log.holds(runId)) {
                endedElsewhere.watch(run, log, s, sse::closed, ended -> finalValues(ended, sse));
            }
            streams.cancelOnDisconnect(sse, run, cancel);
        }, stream::fail);
    }

    /** Past the stream's retention (or after a restart), a join gets the thread's final values and the end. */
    private void finalValues(Run run, SseSubscriber sse) {
        Uni<String> values = assistants.resolve(run.assistantId())
                .chain(a -> assistants.graph(a).graph().state(run.threadId()))
                .map(s -> s.map(snap -> WireState.values(snap.values()).toString()).orElse("{}"));
        // not events of the log, so they carry no id: a client keeps the last id it had (ids stay unique and increasing)
        values.subscribe().with(v -> {
            sse.onEvent(new RunEvent(RunEvent.UNNUMBERED, run.runId(), "values", "", v));
            sse.onEvent(new RunEvent(RunEvent.UNNUMBERED, run.runId(), "end", "", "null"));
            sse.onEnd(); // the stream ends once both are sent
        }, f -> sse.close());
    }

    private void joinThread(RoutingContext ctx) {
        String threadId = ctx.pathParam("thread_id");
        if (!InputText.isId(threadId)) {
            error(ctx, new NotFoundException("Thread " + threadId + " not found"));
            return;
        }
        SseStream stream = streams.of(ctx, StreamTransport.CLASSIC_SSE);
        if (!stream.admit()) {
            return;
        }
        threads.get(threadId).subscribe().with(t -> {
            if (t.isEmpty()) {
                stream.fail(new NotFoundException("Thread " + threadId + " not found"));
            } else {
                followThread(ctx, threadId, stream);
            }
        }, stream::fail);
    }

    private void followThread(RoutingContext ctx, String threadId, SseStream stream) {
        String header = ctx.request().getHeader("Last-Event-ID");
        Long after = header == null ? null : lastEventId(ctx, -1L);
        List<StreamMode> modes;
        try {
            List<StreamMode> asked = RunSubmissionModes.parse(ctx.queryParam("stream_mode"));
            modes = asked == null ? List.of(StreamMode.values()) : asked;
        } catch (RuntimeException e) {
            stream.fail(e);
            return;
        }
        SseSubscriber sse = sse(stream, modes, true, false);
        // subscribed before the headers go out: a client that acts on them finds its events in the log
        ThreadEventLog.Subscription s = logs.log(threadId).subscribeThread(after, sse);
        stream.open(s::cancel);
    }

    /**
     * An Agent Server SSE stream: {@code event: <mode>}, single-line JSON {@code data:}, the event's thread-wide seq as
     * {@code id:}; the modes the client asked for, the {@code metadata} event and the terminal ones always.
     */
    private static SseSubscriber sse(SseStream stream, List<StreamMode> asked, boolean subgraphs, boolean closeAtEnd) {
        Set<String> modes = StreamMode.eventNames(asked);
        return stream.subscriber(
                e -> ("metadata".equals(e.mode()) || e.terminal() || modes.contains(e.mode())) && (e.ns().isEmpty() || subgraphs),
                e -> "event: " + e.name() + "\ndata: " + e.data() + (e.seq() < 0 ? "\n\n" : "\nid: " + e.seq() + "\n\n"), closeAtEnd);
    }

    /** The request's JSON body, checked ({@link RequestBodies#json}); null when it was refused (the client has its answer already). */
    private static JsonNode body(RoutingContext ctx) {
        try {
            JsonNode body = RequestBodies.json(ctx);
            // none: refused with 422 by the submission, the body is required
            return body == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : body;
        } catch (Exception e) {
            error(ctx, e);
            return null;
        }
    }

    private static long lastEventId(RoutingContext ctx, long dflt) {
        String h = ctx.request().getHeader("Last-Event-ID");
        if (h == null || h.isBlank()) {
            return dflt;
        }
        try {
            return Long.parseLong(h.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
