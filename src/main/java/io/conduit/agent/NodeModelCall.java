package io.conduit.agent;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;

/**
 * One model call made inside a node of any graph, announced to the run's subscribers as a child run named
 * {@code stage} (as the stages' calls are), its text not streamed: the node gets the response to work on.
 */
public final class NodeModelCall {

    private NodeModelCall() {
    }

    public static Uni<ModelResponse> call(LanguageModel model, ModelRequest request, NodeContext ctx, String stage) {
        return StreamedModelCall.run(model, request, ctx, TimeOrderedIds.next(), stage, StreamedModelCall.Shown.NOTHING)
                .map(StreamedModelCall.Reply::response);
    }
}
