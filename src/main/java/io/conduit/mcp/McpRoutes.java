package io.conduit.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.auth.Principal;
import io.conduit.http.Callers;
import io.conduit.http.RequestBodies;
import io.conduit.http.RouteErrors;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The MCP server at {@code /mcp}, on the Streamable HTTP transport, stateless as LangGraph's is: each assistant a tool
 * ({@link AssistantTools}), a call a stateless run ({@link ToolCalls}). {@code POST} carries one JSON-RPC message:
 * a request is answered with one JSON object ({@code application/json}, or one SSE event for a client that accepts
 * only {@code text/event-stream}), a notification or a response with 202 and no body. No session is kept, so no
 * {@code Mcp-Session-Id} is issued (one a client sends is not read), {@code GET} (a server stream) and {@code DELETE}
 * (ending a session) are 405. Who calls is the caller of every route ({@link Callers}, after the access guard): it
 * sees the system assistants and its own.
 */
@ApplicationScoped
public class McpRoutes {

    static final String BASE = "/mcp";
    private static final String JSON = "application/json";
    private static final String SSE = "text/event-stream";

    private final McpMethods methods;
    private final RequestBodies bodies;
    private final Vertx vertx;
    private final AllowedOrigins origins;

    McpRoutes(McpMethods methods, RequestBodies bodies, Vertx vertx, AllowedOrigins origins) {
        this.methods = methods;
        this.bodies = bodies;
        this.vertx = vertx;
        this.origins = origins;
    }

    void routes(@Observes Router router) {
        router.post(BASE).handler(bodies.handler()).handler(this::post).failureHandler(this::failed);
        router.get(BASE).handler(ctx -> notAllowed(ctx, "This server offers no stream of its own: POST JSON-RPC messages to " + BASE + "."));
        router.delete(BASE).handler(ctx -> notAllowed(ctx, "This server keeps no sessions, so there is none to end."));
    }

    private void post(RoutingContext ctx) {
        if (!origins.allows(ctx.request().getHeader("Origin"))) {
            reply(ctx, 403, false, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Forbidden: the origin " + ctx.request().getHeader("Origin")
                    + " may not call this server (quarkus.http.cors.origins lists the ones that may)."));
            return;
        }
        String accept = ctx.request().getHeader("Accept");
        boolean sse = accept != null && accept.contains(SSE) && !acceptsJson(accept);
        if (accept != null && !sse && !acceptsJson(accept)) {
            reply(ctx, 406, false, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Not acceptable: the answer is " + JSON + " or " + SSE + "."));
            return;
        }
        String type = ctx.request().getHeader("Content-Type");
        if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith(JSON)) {
            reply(ctx, 415, false, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Unsupported media type: send one JSON-RPC message as " + JSON + "."));
            return;
        }
        JsonRpc.Message message;
        try {
            JsonNode body = RequestBodies.json(ctx);
            if (body == null) {
                throw new JsonRpc.Failure(JsonRpc.INVALID_REQUEST, "Invalid request: the body is empty; send one JSON-RPC message.", 400, null);
            }
            message = JsonRpc.read(body);
        } catch (JsonRpc.Failure f) {
            reply(ctx, f.status, false, JsonRpc.error(f.id, f.code, f.getMessage()));
            return;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            reply(ctx, 400, false, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: the body is not JSON: " + e.getOriginalMessage()));
            return;
        } catch (RuntimeException e) {
            // the client JSON check: text a store cannot keep, not UTF-8
            reply(ctx, 400, false, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: " + e.getMessage()));
            return;
        }
        if (!message.isRequest()) {
            ctx.response().setStatusCode(202).end(); // a notification or a response: acknowledged, nothing to answer
            return;
        }
        if (!"initialize".equals(message.method()) && !ProtocolVersions.accepted(ctx.request().getHeader(ProtocolVersions.HEADER))) {
            reply(ctx, 400, false, JsonRpc.error(message.id(), JsonRpc.INVALID_REQUEST, "Unsupported " + ProtocolVersions.HEADER + ": "
                    + ctx.request().getHeader(ProtocolVersions.HEADER) + "; this server speaks " + String.join(", ", ProtocolVersions.SUPPORTED) + "."));
            return;
        }
        Context context = vertx.getOrCreateContext();
        Principal caller = Callers.of(ctx);
        HttpServerResponse resp = ctx.response();
        // what stops a call whose client went away: the wait, and what the call hands over (its run)
        List<Runnable> onClose = new CopyOnWriteArrayList<>();
        AtomicBoolean closed = new AtomicBoolean();
        Cancellable[] answering = new Cancellable[1];
        resp.closeHandler(v -> { // set before the answer: an ended response takes no handler
            closed.set(true);
            if (answering[0] != null) {
                answering[0].cancel();
            }
            onClose.forEach(Runnable::run);
        });
        // one handed over after the client went away runs at once (each is safe to run twice: the two checks may race)
        Consumer<Runnable> whenClosed = r -> {
            onClose.add(r);
            if (closed.get()) {
                r.run();
            }
        };
        Uni<JsonNode> result = methods.answer(message, caller, context, whenClosed);
        answering[0] = result.subscribe().with(r -> reply(ctx, 200, sse, JsonRpc.result(message.id(), r)), f -> {
            if (f instanceof JsonRpc.Failure rpc) {
                reply(ctx, 200, sse, JsonRpc.error(message.id(), rpc.code, rpc.getMessage()));
            } else {
                io.conduit.http.ErrorBody e = io.conduit.http.ErrorBody.of(f); // its detail, never a stack trace
                reply(ctx, 200, sse, JsonRpc.error(message.id(), JsonRpc.INTERNAL_ERROR, "Internal error (" + e.code() + "): " + e.detail()));
            }
        });
    }

    private static boolean acceptsJson(String accept) {
        return accept.contains(JSON) || accept.contains("*/*") || accept.contains("application/*");
    }

    /** One JSON-RPC answer, as JSON or as the one event of an SSE stream. */
    private static void reply(RoutingContext ctx, int status, boolean sse, String json) {
        HttpServerResponse r = ctx.response();
        if (r.ended() || r.closed()) {
            return;
        }
        if (sse) {
            r.setStatusCode(status).putHeader("Content-Type", SSE).putHeader("Cache-Control", "no-cache")
                    .end("event: message\ndata: " + json + "\n\n");
        } else {
            r.setStatusCode(status).putHeader("Content-Type", JSON).end(json);
        }
    }

    private static void notAllowed(RoutingContext ctx, String why) {
        ctx.response().putHeader("Allow", "POST");
        reply(ctx, 405, false, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Method not allowed: " + why));
    }

    /** An oversized body (413) or a failure of the route, as a JSON-RPC error without an id. */
    private void failed(RoutingContext ctx) {
        if (ctx.statusCode() == 413) {
            reply(ctx, 413, false, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "The request body is larger than " + bodies.limit() + " bytes."));
        } else if (ctx.failure() != null) {
            io.conduit.http.ErrorBody e = io.conduit.http.ErrorBody.of(ctx.failure());
            reply(ctx, e.status(), false, JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, e.detail()));
        } else {
            RouteErrors.write(ctx, new io.conduit.http.ErrorBody(ctx.statusCode(), "http_" + ctx.statusCode(), "the request failed"));
        }
    }
}
