package io.conduit.llm.simulator;

import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestMulti;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The built-in OpenAI-compatible endpoint, {@code /simulator/v1}: scripted, deterministic answers in OpenAI's exact
 * wire format, so the whole service runs, and is tested and benchmarked, without a model.
 * <p>
 * Every answer is a {@link RestMulti} of ready-made text with its status and content type set here, not a JAX-RS
 * SSE stream: Quarkus REST writes SSE as {@code data:<payload>} (no space) and owns the framing, while OpenAI's is
 * exactly {@code data: <json>\n\n} ending with {@code data: [DONE]\n\n}, and clients that cut at {@code "data: "}
 * must work too. Declared with no {@code @Produces} (so neither SSE nor JSON), Quarkus REST writes each item as it
 * is; {@link AnyAcceptHeader} lets any {@code Accept} header through, as OpenAI does. Nothing here blocks: the body is parsed on the event loop and
 * delays are timers ({@link TokenPacing}, over {@link PacedWrites}: the role delta goes with the first token); the
 * stream is written item by item as the socket takes it.
 */
@Path("/simulator/v1")
@NonBlocking
public class SimulatorResource {

    private static final Logger LOG = Logger.getLogger(SimulatorResource.class);
    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream; charset=utf-8";
    private static final String DONE = "data: [DONE]\n\n";
    private static final String MODELS = "{\"object\":\"list\",\"data\":[{\"id\":\"" + CompletionRequest.DEFAULT_MODEL
            + "\",\"object\":\"model\",\"created\":0,\"owned_by\":\"conduit\"}]}";

    private final SimulatorConfig config;
    private final SimulatedModel model;
    private final TokenPacing pacing;

    SimulatorResource(SimulatorConfig config, SimulatedModel model, TokenPacing pacing) {
        this.config = config;
        this.model = model;
        this.pacing = pacing;
    }

    @POST
    @Path("/chat/completions")
    @Consumes(MediaType.WILDCARD) // clients are not all careful with Content-Type; the body is parsed here
    public RestMulti<String> chatCompletions(String body) {
        if (!config.enabled()) {
            return whole(404, OpenAiErrors.disabled());
        }
        CompletionRequest request;
        try {
            request = CompletionRequest.parse(body);
        } catch (InvalidCompletionRequest e) {
            return whole(400, OpenAiErrors.of(e));
        }
        SimulatedReply reply = model.reply(request);
        ChatCompletionChunks wire = new ChatCompletionChunks(ChatCompletionChunks.newId(), request.model(),
                System.currentTimeMillis() / 1000);
        if (!request.stream()) {
            return whole(200, wire.completion(reply, request.promptTokens()));
        }
        List<Supplier<String>> chunks = wire.frames(reply, request.promptTokens(), request.includeUsage(), config.stampTokens());
        Multi<String> frames = pacing.pace(PacedWrites.of(chunks)).map(Supplier::get);
        Multi<String> events = Multi.createBy().concatenating().streams(frames, Multi.createFrom().item(DONE));
        return RestMulti.fromMultiData(events).status(200)
                .header("Content-Type", EVENT_STREAM).header("Cache-Control", "no-cache").build();
    }

    @GET
    @Path("/models")
    public RestMulti<String> models() {
        return config.enabled() ? whole(200, MODELS) : whole(404, OpenAiErrors.disabled());
    }

    /** Anything unforeseen still answers in OpenAI's error shape, never with a stack trace. */
    @ServerExceptionMapper
    RestResponse<String> unexpected(RuntimeException e) {
        LOG.error("Simulator: a request failed", e);
        return RestResponse.ResponseBuilder.create(RestResponse.Status.INTERNAL_SERVER_ERROR,
                OpenAiErrors.internal("The simulator failed: " + e.getClass().getSimpleName())).type(JSON).build();
    }

    /** A JSON document written in one piece. */
    private static RestMulti<String> whole(int status, String json) {
        return RestMulti.fromMultiData(Multi.createFrom().item(json)).status(status).header("Content-Type", JSON).build();
    }
}
