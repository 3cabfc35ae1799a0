package io.conduit.llm.simulator;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulated model inside the JVM ({@code conduit.llm.provider=simulated}): the script, pacing and token cutting
 * of the HTTP endpoint, streamed straight as {@link ModelEvent}s, in the order and shape the OpenAI provider makes of
 * the endpoint's chunks (text tokens, tool calls opened with id and name and then their arguments in fragments, one
 * {@link ModelEvent.Completed} with usage), without an HTTP hop. Waits are Vert.x timers ({@link TokenPacing}); with
 * zero delays nothing waits at all. A subscriber that cancels stops the emission and its pending timer.
 */
public final class SimulatedLanguageModel implements LanguageModel {

    /** The provider name in responses, errors and logs. */
    public static final String PROVIDER = "simulated";

    /** What a call costs in USD, from the configured prices (a simulated model has none of its own). */
    @FunctionalInterface
    public interface Pricing {
        double costUsd(String model, int inputTokens, int outputTokens);
    }

    private final SimulatedModel mind;
    private final TokenPacing pacing;
    private final boolean stampTokens;
    private final String model;
    private final String summarizerModel;
    private final Pricing pricing;

    SimulatedLanguageModel(SimulatedModel mind, TokenPacing pacing, boolean stampTokens, String model,
                           String summarizerModel, Pricing pricing) {
        this.mind = mind;
        this.pacing = pacing;
        this.stampTokens = stampTokens;
        this.model = model;
        this.summarizerModel = summarizerModel;
        this.pricing = pricing;
    }

    /**
     * The model as {@code conduit.simulator.*} configures it; the script is loaded and checked now, so a broken one
     * stops start-up.
     *
     * @param model the name responses report (the role's model when a request names none)
     * @param summarizerModel the name for {@link ModelRole#SUMMARIZER} requests
     */
    public static SimulatedLanguageModel create(SimulatorConfig config, Vertx vertx, String model, String summarizerModel,
                                                Pricing pricing) {
        return new SimulatedLanguageModel(SimulatedModel.load(config),
                new TokenPacing(config.timeToFirstToken(), config.interTokenDelay(), TokenPacing.vertxTimer(vertx)),
                config.stampTokens(), model, summarizerModel, pricing);
    }

    /** For the start-up log: where the answers come from and how they are paced. */
    public static String describe(SimulatorConfig config) {
        return "scripted by " + SimulatedModel.scriptName(config) + ", time to first token "
                + config.timeToFirstToken().toMillis() + " ms, inter-token delay " + config.interTokenDelay().toMillis() + " ms"
                + (config.stampTokens() ? ", text tokens stamped with their emit time (conduit.simulator.stamp-tokens)" : "");
    }

    /** Always: the answers come from the simulator's script. */
    @Override
    public boolean scripted() {
        return true;
    }

    @Override
    public Multi<ModelEvent> stream(ModelRequest request) {
        return Multi.createFrom().deferred(() -> {
            long start = System.nanoTime();
            String modelName = request.model() != null ? request.model()
                    : request.role() == ModelRole.SUMMARIZER ? summarizerModel : model;
            CompletionRequest conversation;
            try {
                conversation = ModelRequestConversation.of(request, modelName);
            } catch (InvalidCompletionRequest e) {
                return Multi.createFrom().failure(new ModelException(PROVIDER, "invalid request: " + e.getMessage(), e));
            }
            SimulatedReply reply = mind.reply(conversation);
            Emission emission = new Emission(reply, modelName, conversation.promptTokens(), start);
            return pacing.pace(ReplyPiece.of(reply)).map(emission::event);
        });
    }

    /** One call's emission: each piece becomes its event when it is emitted (one at a time, in order). */
    private final class Emission {

        private final SimulatedReply reply;
        private final String modelName;
        private final int promptTokens;
        private final long startNanos;
        private final String completionId = ChatCompletionChunks.newId();
        private final StringBuilder text = new StringBuilder();
        private long firstOutputNanos;

        Emission(SimulatedReply reply, String modelName, int promptTokens, long startNanos) {
            this.reply = reply;
            this.modelName = modelName;
            this.promptTokens = promptTokens;
            this.startNanos = startNanos;
        }

        ModelEvent event(ReplyPiece piece) {
            return switch (piece) {
                case ReplyPiece.Reasoning r -> {
                    output();
                    yield new ModelEvent.Reasoning(r.text());
                }
                case ReplyPiece.Text t -> {
                    output();
                    String token = stampTokens ? TokenStamp.now() : t.text();
                    text.append(token);
                    yield new ModelEvent.Token(token);
                }
                // a call opens with its id and name and no arguments, as the OpenAI provider streams it
                case ReplyPiece.ToolCallOpening o ->
                        new ModelEvent.ToolCallDelta(o.index(), ChatCompletionChunks.callId(completionId, o.index()), o.name(), "");
                case ReplyPiece.ToolCallArguments a -> new ModelEvent.ToolCallDelta(a.index(), null, null, a.fragment());
                case ReplyPiece.Finish f -> new ModelEvent.Completed(response(f.reason()));
            };
        }

        /** Text and reasoning are output for the time to first token; tool calls are not (as for the providers). */
        private void output() {
            if (firstOutputNanos == 0) {
                firstOutputNanos = System.nanoTime();
            }
        }

        private ModelResponse response(String finishReason) {
            List<ToolCall> calls = new ArrayList<>(reply.toolCalls().size());
            for (int i = 0; i < reply.toolCalls().size(); i++) {
                SimulatedReply.Call c = reply.toolCalls().get(i);
                calls.add(new ToolCall(ChatCompletionChunks.callId(completionId, i), c.name(), c.arguments()));
            }
            int completionTokens = reply.completionTokens();
            long end = System.nanoTime();
            return new ModelResponse(text.toString(), calls, reply.reasoning(), PROVIDER, modelName, promptTokens,
                    completionTokens, finishReason, firstOutputNanos == 0 ? -1 : millis(firstOutputNanos - startNanos),
                    millis(end - startNanos), pricing.costUsd(modelName, promptTokens, completionTokens));
        }
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }
}
