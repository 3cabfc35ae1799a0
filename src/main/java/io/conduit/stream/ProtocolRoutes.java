package io.conduit.stream;

import io.conduit.http.Callers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.http.RequestBodies;
import io.conduit.http.SseStream;
import io.conduit.http.SseStreams;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadEventLog;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The thread protocol over HTTP, on Vert.x: {@code POST /threads/{id}/commands} answers one command inline, always
 * 200 with a JSON success or error answer (never 202/204: the SDK would wait for the answer on an event stream);
 * {@code POST /threads/{id}/stream/events} with {@code {channels, namespaces?, depth?, since?}} is one filtered SSE
 * subscription: the thread's buffered events (after {@code since}, or all), then live, until the client closes it.
 */
@ApplicationScoped
public class ProtocolRoutes {

    private final ThreadCommands commands;
    private final ProtocolEventLogs logs;
    private final ThreadAccess access;
    private final StreamConfig config;
    private final RequestBodies bodies;
    private final SseStreams streams;

    ProtocolRoutes(ThreadCommands commands, ProtocolEventLogs logs, ThreadAccess access, StreamConfig config, RequestBodies bodies,
                   SseStreams streams) {
        this.commands = commands;
        this.logs = logs;
        this.access = access;
        this.config = config;
        this.bodies = bodies;
        this.streams = streams;
    }

    void routes(@Observes Router router) {
        BodyHandler body = bodies.handler();
        router.post("/threads/:thread_id/commands").handler(body).handler(this::command);
        router.post("/threads/:thread_id/stream/events").handler(body).handler(this::events);
    }

    private void command(RoutingContext ctx) {
        String threadId = ctx.pathParam("thread_id");
        allowed(ctx, threadId, () -> {
            ProtocolCommand c;
            try {
                c = ProtocolCommand.parse(ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes());
            } catch (ProtocolCommand.Malformed m) {
                json(ctx, 200, CommandAnswers.error(m.id(), "invalid_argument", m.getMessage()));
                return;
            }
            commands.handle(threadId, c, null, Callers.of(ctx)).subscribe().with(answer -> json(ctx, 200, answer),
                    f -> json(ctx, 200, CommandAnswers.error(c.id(), "unknown_error", "the server failed to handle the command")));
        });
    }

    private void events(RoutingContext ctx) {
        String threadId = ctx.pathParam("thread_id");
        SseStream stream = streams.of(ctx, StreamTransport.PROTOCOL_SSE, config.heartbeat());
        allowed(ctx, threadId, () -> {
            EventFilter filter;
            Long since;
            try {
                JsonNode b = RequestBodies.json(ctx);
                if (b == null || !b.isObject()) {
                    throw ProtocolException.invalid("the body is {channels, namespaces?, depth?, since?}");
                }
                filter = EventFilter.parse(b, false);
                since = ThreadCommands.since(b);
            } catch (ProtocolException e) {
                json(ctx, 400, CommandAnswers.error(null, e.code(), e.getMessage()));
                return;
            } catch (InvalidInputException e) {
                json(ctx, 400, CommandAnswers.error(null, "invalid_argument", e.getMessage()));
                return;
            } catch (Exception e) {
                json(ctx, 400, CommandAnswers.error(null, "invalid_argument", "the body is not JSON"));
                return;
            }
            // this replica's streams at their limit (conduit.limits.max-streams): the protocol's error answer
            if (!stream.admit(p -> {
                ctx.response().putHeader("Retry-After", String.valueOf(p.retryAfterSeconds()));
                json(ctx, 429, CommandAnswers.error(null, StreamPermits.CODE, p.refusal()));
            })) {
                return;
            }
            SseSubscriber sse = stream.subscriber(e -> ConnectionSubscriptions.notice(e) || filter.matches(e.mode(), e.ns()),
                    ProtocolRoutes::frame, false);
            // subscribed before the headers go out: a client that acts on them finds its events in the log
            ThreadEventLog.Subscription s = logs.log(threadId).subscribeThread(since == null ? -1L : since, sse);
            stream.open(s::cancel);
        });
    }

    /**
     * One event as the SDK's SSE transport reads it: {@code event: <method>}, {@code data: <event JSON>},
     * {@code id: <event_id>} (the seq: the protocol's events use it as their id). The log's notice that a replay lost
     * events goes out as an id-less {@code event: error}, which the SDK hands to {@code thread.onError}.
     */
    static String frame(RunEvent e) {
        if (ConnectionSubscriptions.notice(e)) {
            return "event: error\ndata: " + e.data() + "\n\n";
        }
        return "event: " + e.mode() + "\ndata: " + e.data() + "\nid: " + e.seq() + "\n\n";
    }

    private void allowed(RoutingContext ctx, String threadId, Runnable then) {
        Map<String, List<String>> headers = new HashMap<>();
        ctx.request().headers().names().forEach(n -> headers.put(n.toLowerCase(java.util.Locale.ROOT), ctx.request().headers().getAll(n)));
        access.allows(threadId, headers).subscribe().with(ok -> {
            if (Boolean.TRUE.equals(ok)) {
                then.run();
            } else {
                json(ctx, 403, CommandAnswers.error(null, "permission_denied", "this caller may not see thread " + threadId));
            }
        }, f -> json(ctx, 500, CommandAnswers.error(null, "unknown_error", "the authorization check failed")));
    }

    private static void json(RoutingContext ctx, int status, ObjectNode body) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.toString());
    }
}
