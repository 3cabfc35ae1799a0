package io.conduit.graph;

import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a compiled graph as one node of another. The subgraph checkpoints in its own namespace
 * ({@code parentNs|node:taskId}) of the same thread and store, so it pauses and resumes with its parent.
 *
 * <p>State crosses by channel name: the subgraph starts from the parent's values of the channels both declare, and
 * hands back what it changed in them: for a messages channel the items it added or replaced, for a last-value
 * channel its new value. A custom reducer channel has no general inverse, so its changes stay in the subgraph.
 * Its events reach the parent's subscribers tagged with the subgraph's namespace. With a {@link SubgraphMapping}, the
 * mapping decides both crossings instead, and the subgraph's channels need not share any name with the parent's.
 */
final class SubgraphNode implements Node {

    private final CompiledGraph graph;
    /** Null: state crosses by channel name. */
    private final SubgraphMapping mapping;

    SubgraphNode(CompiledGraph graph) {
        this(graph, null);
    }

    SubgraphNode(CompiledGraph graph, SubgraphMapping mapping) {
        this.graph = graph;
        this.mapping = mapping;
    }

    /** The graph it runs. */
    CompiledGraph graph() {
        return graph;
    }

    @Override
    public Uni<Update> run(State parent, NodeContext context) {
        TaskContext ctx = (TaskContext) context;
        String ns = (ctx.ns().isEmpty() ? "" : ctx.ns() + "|") + ctx.node() + ":" + ctx.taskId();
        Checkpointer store = ctx.run().store();
        return store.head(ctx.threadId(), ns).flatMap(head -> {
            RunRequest req = RunRequest.on(ctx.threadId()).runId(ctx.runId()).durability(ctx.run().durability()).configurable(ctx.configurable())
                    .fence(ctx.run().fence());
            if (head.isEmpty()) {
                req = req.input(mapping == null ? seed(parent) : mapping.input(parent, ctx));
            } else if (ctx.latestResume() != null && hasPendingInterrupt(head.get())) {
                req = req.command(Command.resume(ctx.latestResume()));
            }
            return runIn(req, ns, store, ctx, parent);
        });
    }

    private boolean hasPendingInterrupt(Head head) {
        return TaskRecord.decode(head.pendingWrites(), graph.schema(), head.checkpoint().threadId()).values().stream()
                .anyMatch(r -> !r.pendingInterrupts().isEmpty() || r.breakpoint != null);
    }

    private Uni<Update> runIn(RunRequest req, String ns, Checkpointer store, TaskContext ctx, State parent) {
        return graph.stream(req, ns, store)
                .onItem().invoke(e -> {
                    if (!e.terminal()) {
                        ctx.forward(e);
                    }
                })
                .filter(GraphEvent::terminal)
                .collect().last()
                .map(end -> switch (end) {
                    case GraphEvent.RunFinished f -> mapping == null ? output(parent, f.state()) : mapping.output(parent, f.state(), ctx);
                    case GraphEvent.Interrupted i -> throw new NodeInterrupt(i.interrupts());
                    case GraphEvent.RunFailed f -> throw new GraphException(GraphException.Code.valueOf(f.code().toUpperCase()),
                            "subgraph " + ctx.node() + ": " + f.message());
                    default -> throw new IllegalStateException("not a terminal event: " + end);
                });
    }

    /** The parent's values of the channels both graphs declare, as the subgraph's first input. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Update seed(State parent) {
        Update u = Update.none();
        for (Channel ch : graph.schema().channels()) {
            if (parent.schema().indexOf(ch.name()) < 0) {
                continue;
            }
            Object value = parent.get(ch.name());
            if (ch.storesWrites()) {
                u = u.add(ch, ch.diff(ch.empty(), value));
            } else if (!java.util.Objects.equals(value, ch.empty())) {
                u = u.set(ch, value);
            }
        }
        return u;
    }

    /** What the subgraph changed in the channels both graphs declare, as writes to the parent's channels. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Update output(State parent, State result) {
        Update u = Update.none();
        for (Channel sub : graph.schema().channels()) {
            Channel mine = parent.schema().channel(sub.name());
            if (mine == null) {
                continue;
            }
            List changes = mine.diff(parent.get(sub.name()), result.get(sub.name()));
            if (changes != null && !changes.isEmpty()) {
                u = u.add(mine, new ArrayList<>(changes));
            }
        }
        return u;
    }

}
