package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A checked graph bound to a checkpoint store: runs it ({@link #stream}, {@link #invoke}), and reads and manages
 * its threads. Thread-safe; one instance serves every thread.
 */
public final class CompiledGraph {

    private final StateSchema schema;
    private final Map<String, Node> nodes;
    private final Map<String, List<String>> edges;
    private final Map<String, List<StateGraph.Branch>> branches;
    private final List<String> nodeOrder;
    private final GraphOptions options;
    private final StateLoader loader;
    /** Loaders for stores a parent graph lends this one when it runs as a subgraph. */
    private final Map<Checkpointer, StateLoader> borrowed = new ConcurrentHashMap<>();
    /**
     * The write queue of the latest run of each thread and namespace in this process, while it has writes on their
     * way. A run starts behind it: a cancelled run's writes go on (async durability), and a run that read the head
     * before they landed would build on a stale head and fail with a conflict.
     */
    private final Map<String, WriteQueue> writing = new ConcurrentHashMap<>();

    CompiledGraph(StateSchema schema, Map<String, Node> nodes, Map<String, List<String>> edges,
                  Map<String, List<StateGraph.Branch>> branches, List<String> nodeOrder, GraphOptions options) {
        this.schema = schema;
        this.nodes = nodes;
        this.edges = edges;
        this.branches = branches;
        this.nodeOrder = nodeOrder;
        this.options = options;
        this.loader = new StateLoader(schema, options.checkpointer(), options.stateCacheSize());
    }

    /**
     * Runs the graph. The stream always ends with exactly one of {@link GraphEvent.RunFinished},
     * {@link GraphEvent.Interrupted} or {@link GraphEvent.RunFailed}; errors arrive as events, not as stream
     * failures. Cancelling the subscription cancels the run; what it had stored stays.
     */
    public Multi<GraphEvent> stream(RunRequest request) {
        return stream(request, "", options.checkpointer());
    }

    Multi<GraphEvent> stream(RunRequest request, String ns, Checkpointer store) {
        StateLoader l = loaderFor(store);
        // buffered: the run never waits for its subscribers; the transport layer bounds each client's share
        return new RunEventStream(em -> new RunLoop(this, request, ns, store, l, em).start());
    }

    /** A new run's write queue, behind the writes of the thread's previous run in this process. */
    WriteQueue queueFor(String threadId, String ns, Durability durability, WriteFence fence) {
        if (threadId == null) {
            return new WriteQueue(durability, fence);
        }
        return writing.compute(key(threadId, ns), (k, previous) -> WriteQueue.after(previous, durability, fence));
    }

    /** The run that owns {@code q} has ended: once its writes have landed, nothing needs to wait for them. */
    void ended(String threadId, String ns, WriteQueue q) {
        if (threadId != null) {
            q.whenSettled(() -> writing.remove(key(threadId, ns), q));
        }
    }

    /**
     * Completes when every checkpoint write that runs of this thread have queued in this process has been stored
     * (or has failed): after a run was cancelled, its last checkpoints are then readable, and rolling it back
     * deletes them all. At once when none is in flight.
     */
    public Uni<Void> settled(String threadId) {
        WriteQueue q = writing.get(key(threadId, ""));
        return q == null ? Uni.createFrom().voidItem() : q.flush().onFailure().recoverWithNull().replaceWithVoid();
    }

    private static String key(String threadId, String ns) {
        return ns + '\u0000' + threadId; // ids hold no NUL
    }

    /** Runs the graph to its end and reports how it ended. */
    public Uni<RunResult> invoke(RunRequest request) {
        return stream(request).filter(GraphEvent::terminal).collect().last().map(CompiledGraph::result);
    }

    static RunResult result(GraphEvent e) {
        return switch (e) {
            case GraphEvent.RunFinished f -> new RunResult(RunResult.Status.FINISHED, f.state(), List.of(), f.checkpointId(), null, null);
            case GraphEvent.Interrupted i -> new RunResult(RunResult.Status.INTERRUPTED, null, i.interrupts(), i.checkpointId(), null, null);
            case GraphEvent.RunFailed f -> new RunResult(RunResult.Status.FAILED, null, List.of(), null, f.code(), f.message());
            default -> throw new IllegalStateException("not a terminal event: " + e);
        };
    }

    /** The thread's state at its newest checkpoint (or at {@code checkpointId}); empty for an unknown thread. */
    public Uni<Optional<StateSnapshot>> state(String threadId) {
        return options.checkpointer().head(threadId, "").flatMap(this::snapshot);
    }

    /**
     * The thread's state at its newest checkpoint if run {@code runId} wrote it; empty otherwise. Tells a run found
     * unfinished whether it had begun its turn, and a run that ended whether the thread still stands where it left it.
     */
    public Uni<Optional<StateSnapshot>> stateLeftBy(String threadId, String runId) {
        return options.checkpointer().head(threadId, "")
                .map(head -> head.filter(t -> runId.equals(t.checkpoint().runId())))
                .flatMap(this::snapshot);
    }

    public Uni<Optional<StateSnapshot>> state(String threadId, String checkpointId) {
        return options.checkpointer().get(threadId, "", checkpointId).flatMap(this::snapshot);
    }

    /**
     * The state of a subgraph inside this graph, at its newest checkpoint: {@code ns} is its namespace, as its events
     * carry it (segments {@code <node>:<task id>}, outermost first); the root for an empty one. Empty when a segment
     * names no subgraph node here or nothing was checkpointed there.
     */
    public Uni<Optional<StateSnapshot>> state(String threadId, List<String> ns) {
        if (ns.isEmpty()) {
            return state(threadId);
        }
        CompiledGraph g = this;
        for (String segment : ns) {
            int colon = segment.indexOf(':');
            Node n = colon < 0 ? null : g.nodes.get(segment.substring(0, colon));
            if (!(n instanceof SubgraphNode sub)) {
                return Uni.createFrom().item(Optional.empty());
            }
            g = sub.graph();
        }
        CompiledGraph inner = g;
        Checkpointer store = options.checkpointer();
        return store.head(threadId, String.join("|", ns)).flatMap(h -> inner.snapshot(h, inner.loaderFor(store)));
    }

    private StateLoader loaderFor(Checkpointer store) {
        return store == options.checkpointer() ? loader : borrowed.computeIfAbsent(store, s -> new StateLoader(schema, s, 1_000));
    }

    /** Checkpoints of a thread, newest first, with their state. */
    public Uni<List<StateSnapshot>> history(String threadId, int limit, String before) {
        return options.checkpointer().list(threadId, "", limit, before).flatMap(cps -> {
            if (cps.isEmpty()) {
                return Uni.createFrom().item(List.<StateSnapshot>of());
            }
            List<Uni<Optional<StateSnapshot>>> each = new ArrayList<>();
            for (Checkpoint cp : cps) {
                each.add(state(threadId, cp.id()));
            }
            return Uni.join().all(each).andFailFast().map(l -> l.stream().flatMap(Optional::stream).toList());
        });
    }

    private Uni<Optional<StateSnapshot>> snapshot(Optional<Head> head) {
        return snapshot(head, loader);
    }

    private Uni<Optional<StateSnapshot>> snapshot(Optional<Head> head, StateLoader loader) {
        if (head.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        Checkpoint cp = head.get().checkpoint();
        Map<String, TaskRecord> records = TaskRecord.decode(head.get().pendingWrites(), schema, cp.threadId());
        List<Interrupt> interrupts = new ArrayList<>();
        Map<String, List<Interrupt>> byTask = new java.util.HashMap<>();
        records.forEach((taskId, r) -> {
            interrupts.addAll(r.pendingInterrupts());
            if (!r.pendingInterrupts().isEmpty()) {
                byTask.put(taskId, List.copyOf(r.pendingInterrupts()));
            }
            if (r.breakpoint != null) {
                interrupts.add(r.breakpoint);
            }
        });
        return loader.load(cp).map(state -> Optional.of(new StateSnapshot(cp.threadId(), cp.ns(), cp.id(), cp.parentId(), cp.step(),
                cp.source(), state, cp.next().stream().map(t -> t.node()).toList(), interrupts, Map.copyOf(byTask), cp.metadata(),
                cp.createdAtMillis())));
    }

    /**
     * Writes {@code update} to a thread as if node {@code asNode} had returned it (LangGraph's {@code update_state}):
     * through the reducers, in a new checkpoint of source {@code update} whose next tasks are where the graph goes
     * from {@code asNode} on the new state; a run without input continues from there. See {@link StateUpdate}.
     *
     * @param asNode       a node, {@link StateGraph#START} to act as an input, or null for the node that wrote the
     *                     checkpoint built on when that is unambiguous (INVALID_REQUEST otherwise)
     * @param checkpointId the checkpoint to build on, null for the head; an older one forks the thread there
     * @return the new checkpoint's id; fails with INVALID_REQUEST for an unknown node, UNKNOWN_THREAD for an unknown
     *         thread or checkpoint, CONFLICT when a run advanced the thread meanwhile
     */
    public Uni<String> updateState(String threadId, Update update, String asNode, String checkpointId) {
        return StateUpdate.apply(this, loader, threadId, update, asNode, checkpointId);
    }

    /**
     * Starts thread {@code to} at the state of {@code from}'s newest checkpoint: one checkpoint (source {@code fork})
     * holding a snapshot of that state and the same next tasks. The source's history is not copied. Fails with
     * UNKNOWN_THREAD for an unknown source and CONFLICT when {@code to} exists.
     */
    public Uni<String> copyThread(String from, String to) {
        Checkpointer store = options.checkpointer();
        return store.head(from, "").flatMap(head -> {
            if (head.isEmpty()) {
                throw new GraphException(GraphException.Code.UNKNOWN_THREAD, "thread " + from + " does not exist");
            }
            Checkpoint source = head.get().checkpoint();
            return loader.load(source).flatMap(state -> {
                String id = TimeOrderedIds.next();
                Checkpoint copy = new Checkpoint(to, "", id, null, source.step(), CheckpointSource.FORK, null, Map.of(), Map.of(), source.next(),
                        source.metadata(), TimeOrderedIds.millisOf(id), 1);
                return store.put(copy, null)
                        .flatMap(v -> store.putSnapshot(to, "", id, StateLoader.snapshotOf(state)))
                        .map(v -> id);
            });
        });
    }

    /**
     * Keeps the newest {@code keep} checkpoints of a thread's root namespace and deletes the older ones, after
     * storing a snapshot at the oldest kept one so its state stays readable. Returns how many were deleted.
     */
    public Uni<Long> prune(String threadId, int keep) {
        if (keep < 1) {
            return Uni.createFrom().failure(new GraphException(GraphException.Code.INVALID_REQUEST, "prune keeps at least one checkpoint"));
        }
        Checkpointer store = options.checkpointer();
        return store.list(threadId, "", keep, null).flatMap(kept -> {
            if (kept.size() < keep) {
                return Uni.createFrom().item(0L);
            }
            Checkpoint oldest = kept.get(kept.size() - 1);
            return loader.load(oldest)
                    .flatMap(state -> store.putSnapshot(threadId, "", oldest.id(), StateLoader.snapshotOf(state)))
                    .flatMap(v -> store.prune(threadId, "", oldest.id()));
        });
    }

    /**
     * Undoes a run that has ended (LangGraph's rollback): deletes the checkpoints it wrote on the thread, in every
     * namespace, and moves the head back to the newest checkpoint not written by it; a thread the run started is
     * gone afterwards. Fails with UNKNOWN_THREAD for an unknown thread and CONFLICT when another run or an update
     * already built on the run's checkpoints. Returns how many checkpoints were deleted.
     */
    public Uni<Long> rollback(String threadId, String runId) {
        Checkpointer store = options.checkpointer();
        return settled(threadId).flatMap(v -> store.head(threadId, "")).flatMap(head -> {
            if (head.isEmpty()) {
                throw new GraphException(GraphException.Code.UNKNOWN_THREAD, "thread " + threadId + " does not exist");
            }
            return store.deleteRun(threadId, runId)
                    .onFailure(IllegalStateException.class).transform(e -> new GraphException(GraphException.Code.CONFLICT, e.getMessage(), e))
                    // the cache holds the newest state the loader saw, which may be one of the deleted checkpoints
                    .onTermination().invoke(() -> loader.forget(threadId));
        });
    }

    public Uni<Void> deleteThread(String threadId) {
        loader.forget(threadId);
        return options.checkpointer().deleteThread(threadId);
    }

    /** The graph as a Mermaid flowchart. */
    public String mermaid() {
        return Mermaid.draw(nodeOrder, edges, branches);
    }

    /**
     * The graph's nodes and edges, as LangGraph's {@code get_graph(xray)} gives them: {@code xray} levels of
     * subgraphs drawn inside their nodes, 0 for none, {@link Integer#MAX_VALUE} for all. See {@link GraphShape}.
     */
    public GraphShape shape(int xray) {
        return GraphShapes.of(this, xray);
    }

    /** The graph's nodes, in the order they were added. */
    public List<String> nodeNames() {
        return nodeOrder;
    }

    public StateSchema schema() {
        return schema;
    }

    public GraphOptions options() {
        return options;
    }

    Node node(String name) {
        return nodes.get(name);
    }

    List<String> edges(String from) {
        return edges.getOrDefault(from, List.of());
    }

    List<StateGraph.Branch> branches(String from) {
        return branches.getOrDefault(from, List.of());
    }
}
