package io.conduit.graph;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.Function;

/**
 * A node with a time limit: when its {@code Uni} has not answered in time it is cancelled (a model stream or a tool
 * call stops with it) and the task fails with {@link GraphException.Code#NODE_TIMEOUT}, which fails the run with a
 * message naming the node and the limit. The limit is read per task from its context (a run's settings); null or
 * zero: no limit. An interrupt is not a timeout: it is thrown before the node's {@code Uni} is built.
 */
public final class TimedNode implements Node {

    private final Node node;
    private final Function<NodeContext, Duration> timeout;

    public TimedNode(Node node, Function<NodeContext, Duration> timeout) {
        this.node = node;
        this.timeout = timeout;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        Duration limit = timeout.apply(ctx);
        Uni<Update> work = Uni.createFrom().deferred(() -> node.run(state, ctx));
        if (limit == null || limit.isZero() || limit.isNegative()) {
            return work;
        }
        return work.ifNoItem().after(limit).failWith(() -> new GraphException(GraphException.Code.NODE_TIMEOUT,
                "node " + ctx.node() + " took longer than its timeout of " + human(limit)));
    }

    static String human(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
