package io.conduit.blueprints.request;

import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;

/** A new turn: what the last one worked out, answered and measured is cleared; the input stays as given. */
final class StartNode implements Node {

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        return Uni.createFrom().item(Update.of(RequestState.PROCESSING, Processing.EMPTY)
                .set(RequestState.OUTPUT, RequestOutput.EMPTY)
                .set(RequestState.TURN_METRICS, TurnMetrics.EMPTY));
    }
}
