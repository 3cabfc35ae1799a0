package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * LangGraph's {@code update_state(config, values, as_node)}: writes to a thread as if node {@code asNode} had
 * returned the update, through the same reducers and routing as a step of a run ({@link StepAlgebra}), in a
 * checkpoint of source {@code update}. Its {@code next} is where the graph goes from {@code asNode} on the new
 * state, so a run without input continues from there. The unfinished step of the checkpoint it builds on, if any
 * (an interrupt, a breakpoint), is replaced, not carried: the update says what happened in its place.
 */
final class StateUpdate {

    private StateUpdate() {
    }

    /**
     * @param asNode       a node of the graph, or {@link StateGraph#START} for an update that acts as an input; null
     *                     for the node that wrote the checkpoint built on (START if that was an input, or if the
     *                     thread has no checkpoint yet), when one node did; otherwise the caller must say
     * @param checkpointId the checkpoint to build on (a fork when it is not the head); null for the head
     * @return the id of the new checkpoint, which is the thread's head
     */
    static Uni<String> apply(CompiledGraph graph, StateLoader loader, String threadId, Update update, String asNode, String checkpointId) {
        if (threadId == null || threadId.isBlank()) {
            return Uni.createFrom().failure(invalid("an update needs a thread id"));
        }
        if (asNode != null && !StateGraph.START.equals(asNode) && graph.node(asNode) == null) {
            return Uni.createFrom().failure(invalid("the graph has no node " + asNode + " to update the state as"));
        }
        Update u = update == null ? Update.none() : update;
        Checkpointer store = graph.options().checkpointer();
        return store.head(threadId, "").flatMap(head -> {
            if (head.isEmpty()) {
                if (checkpointId != null) {
                    throw unknown("thread " + threadId + " has no checkpoint " + checkpointId);
                }
                // a thread without checkpoints (LangGraph's too): the update is its first checkpoint, on the initial
                // state, and comes from START (acts as an input) unless asNode says otherwise
                return write(graph, loader, store, threadId, null, null, graph.schema().initialState(), u,
                        asNode != null ? asNode : StateGraph.START);
            }
            String headId = head.get().checkpoint().id();
            Uni<Optional<Head>> base = checkpointId == null || checkpointId.equals(headId) ? Uni.createFrom().item(head)
                    : store.get(threadId, "", checkpointId);
            return base.flatMap(b -> {
                if (b.isEmpty()) {
                    throw unknown("thread " + threadId + " has no checkpoint " + checkpointId);
                }
                Checkpoint at = b.get().checkpoint();
                return (asNode != null ? Uni.createFrom().item(asNode) : lastWriter(store, at))
                        .flatMap(node -> loader.load(at).flatMap(state -> write(graph, loader, store, threadId, headId, at, state, u, node)));
            });
        });
    }

    /** {@code at} null (and {@code headId} null): the thread's first checkpoint, of step -1 as an input's is. */
    private static Uni<String> write(CompiledGraph graph, StateLoader loader, Checkpointer store, String threadId, String headId, Checkpoint at,
                                     State state, Update u, String asNode) {
        StepAlgebra.checkWrites(graph.schema(), u, "the update");
        StepAlgebra.Folded folded = StepAlgebra.fold(state, List.of(u));
        List<TaskSpec> next = StepAlgebra.route(graph, List.of(asNode), List.of(u), folded.state());
        String id = TimeOrderedIds.next();
        StepAlgebra.Origin origin = new StepAlgebra.Origin(threadId, at == null ? "" : at.ns(), null, Map.of());
        // whether `at` holds a snapshot is not known here; counting it as not only brings the next snapshot earlier
        Checkpoint cp = StepAlgebra.checkpoint(origin, id, at, false, folded, next, CheckpointSource.UPDATE, at == null ? -1 : at.step() + 1,
                TimeOrderedIds.millisOf(id));
        Uni<Void> stored = store.put(cp, headId).onFailure(CheckpointConflictException.class)
                .transform(c -> new GraphException(GraphException.Code.CONFLICT, c.getMessage(), c));
        if (StepAlgebra.snapshotDue(cp, graph.options().snapshotEvery())) {
            Map<String, Stored> snapshot = StateLoader.snapshotOf(folded.state());
            stored = stored.call(() -> store.putSnapshot(cp.threadId(), cp.ns(), cp.id(), snapshot));
        }
        return stored.invoke(() -> loader.remember(cp, folded.state())).replaceWith(id);
    }

    /**
     * The node an update without {@code asNode} is taken to come from, as LangGraph decides it: after an input, the
     * input (START); after a step, the node that ran it, if it was one node; otherwise the update is ambiguous.
     */
    private static Uni<String> lastWriter(Checkpointer store, Checkpoint at) {
        // a switch expression, so a new source does not compile until it is given an answer here
        return switch (at.source()) {
            case INPUT, FORK -> Uni.createFrom().item(StateGraph.START);
            case LOOP -> at.parentId() == null ? Uni.createFrom().failure(ambiguous(at)) : nodeThatRan(store, at);
            case UPDATE -> Uni.createFrom().failure(ambiguous(at));
        };
    }

    /** The node of the step that wrote {@code at}: the one task its parent scheduled, or ambiguous. */
    private static Uni<String> nodeThatRan(Checkpointer store, Checkpoint at) {
        return store.get(at.threadId(), at.ns(), at.parentId()).map(parent -> {
            Set<String> ran = new LinkedHashSet<>();
            parent.ifPresent(p -> p.checkpoint().next().forEach(t -> ran.add(t.node())));
            if (ran.size() != 1) {
                throw ambiguous(at);
            }
            return ran.iterator().next();
        });
    }

    private static GraphException ambiguous(Checkpoint at) {
        return invalid("checkpoint " + at.id() + " was not written by one node (source " + at.source().wire()
                + "); say which node the update is from with asNode");
    }

    private static GraphException invalid(String message) {
        return new GraphException(GraphException.Code.INVALID_REQUEST, message);
    }

    private static GraphException unknown(String message) {
        return new GraphException(GraphException.Code.UNKNOWN_THREAD, message);
    }
}
