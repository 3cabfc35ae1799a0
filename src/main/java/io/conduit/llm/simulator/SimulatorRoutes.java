package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.graph.TimeOrderedIds;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The built-in OpenAI-compatible endpoint, {@code /simulator/v1}: scripted, deterministic answers in OpenAI's exact
 * streaming format, so the whole service runs, and is tested and benchmarked, without a model. A plain Vert.x route
 * rather than JAX-RS SSE: the framing ({@code data: <json>\n\n}, then {@code data: [DONE]}) must be byte for byte
 * OpenAI's, and delays run on Vert.x timers, never blocking the event loop.
 */
@ApplicationScoped
public class SimulatorRoutes {

    private static final Logger LOG = Logger.getLogger(SimulatorRoutes.class);
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    void register(@Observes Router router, SimulatorConfig config, Vertx vertx) {
        if (!config.enabled()) {
            return;
        }
        SimulatorScript script = SimulatorScript.load(config.script().orElse(null));
        router.post("/simulator/v1/chat/completions").handler(BodyHandler.create().setBodyLimit(4 * 1024 * 1024))
                .handler(ctx -> complete(ctx, script, config, vertx));
        router.get("/simulator/v1/models").handler(ctx -> ctx.response().putHeader("Content-Type", "application/json")
                .end("{\"object\":\"list\",\"data\":[{\"id\":\"conduit-simulator\",\"object\":\"model\",\"created\":0,\"owned_by\":\"conduit\"}]}"));
        LOG.info("Simulator: serving an OpenAI-compatible model at /simulator/v1 (scripted answers)");
    }

    private void complete(RoutingContext ctx, SimulatorScript script, SimulatorConfig config, Vertx vertx) {
        JsonNode request;
        try {
            request = JsonCodec.MAPPER.readTree(ctx.body().asString());
        } catch (IOException | RuntimeException e) {
            error(ctx, "the request body is not valid JSON", "invalid_json");
            return;
        }
        JsonNode messages = request == null ? null : request.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            error(ctx, "'messages' must be a non-empty array", "missing_messages");
            return;
        }
        StringBuilder prompt = new StringBuilder();
        for (JsonNode m : messages) {
            if (!ROLES.contains(m.path("role").asText())) {
                error(ctx, "unknown role '" + m.path("role").asText() + "'; expected one of " + ROLES, "invalid_role");
                return;
            }
            prompt.append(m.path("content").isTextual() ? m.path("content").asText() : m.path("content").toString()).append(' ');
        }
        boolean tools = request.path("tools").isArray() && !request.path("tools").isEmpty();
        SimulatedReply reply = script.reply(messages, tools, config.reasoning());
        String model = request.path("model").asText("conduit-simulator");
        ChatCompletionChunks wire = new ChatCompletionChunks("chatcmpl-" + TimeOrderedIds.next().replace("-", ""), model,
                System.currentTimeMillis() / 1000);
        int promptTokens = ChatCompletionChunks.count(prompt.toString());
        if (!request.path("stream").asBoolean(false)) {
            ctx.response().putHeader("Content-Type", "application/json").end(wire.completion(reply, promptTokens));
            return;
        }
        boolean usage = request.path("stream_options").path("include_usage").asBoolean(false);
        HttpServerResponse res = ctx.response().setChunked(true)
                .putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
        List<String> chunks = wire.stream(reply, promptTokens, usage);
        after(vertx, config.timeToFirstToken(), () -> send(res, chunks, 0, config.interTokenDelay(), vertx));
    }

    /** Writes chunk {@code i} and schedules the next; waits for the socket to drain instead of buffering without bound. */
    private void send(HttpServerResponse res, List<String> chunks, int i, Duration delay, Vertx vertx) {
        while (!res.closed()) {
            if (i == chunks.size()) {
                res.end("data: [DONE]\n\n");
                return;
            }
            res.write("data: " + chunks.get(i) + "\n\n");
            int next = i + 1;
            if (!delay.isZero()) {
                after(vertx, delay, () -> send(res, chunks, next, delay, vertx));
                return;
            }
            if (res.writeQueueFull()) {
                res.drainHandler(v -> send(res, chunks, next, delay, vertx));
                return;
            }
            i = next;
        }
    }

    private static void after(Vertx vertx, Duration delay, Runnable r) {
        if (delay.isZero()) {
            r.run();
        } else {
            vertx.setTimer(delay.toMillis(), id -> r.run());
        }
    }

    private static void error(RoutingContext ctx, String message, String code) {
        ObjectNode body = JsonCodec.MAPPER.createObjectNode();
        body.putObject("error").put("message", message).put("type", "invalid_request_error").put("code", code);
        ctx.response().setStatusCode(400).putHeader("Content-Type", "application/json").end(body.toString());
    }
}
