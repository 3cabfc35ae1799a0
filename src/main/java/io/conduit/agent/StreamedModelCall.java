package io.conduit.agent;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * Runs one model call inside a node: text goes to the run's subscribers as it arrives (as tokens of the message
 * {@code messageId}), reasoning as {@code reasoning} custom events, and the node gets the finished response.
 */
final class StreamedModelCall {

    private StreamedModelCall() {
    }

    static Uni<ModelResponse> run(LanguageModel model, ModelRequest request, NodeContext ctx, String messageId, boolean streamText) {
        return model.stream(request)
                .onItem().invoke(e -> {
                    if (e instanceof ModelEvent.Token t && streamText) {
                        ctx.token(messageId, t.text());
                    } else if (e instanceof ModelEvent.Reasoning r && streamText) {
                        ctx.custom("reasoning", Map.of("message_id", messageId, "text", r.text()));
                    }
                })
                .filter(e -> e instanceof ModelEvent.Completed)
                .map(e -> ((ModelEvent.Completed) e).response())
                .collect().last()
                .onItem().ifNull().failWith(() -> new ModelException("model", "the stream ended without a response", null));
    }
}
