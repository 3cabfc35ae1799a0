package io.conduit.graph;

import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.graph.StepAlgebra.Folded;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a run starts: checks the request (bad input fails before anything is written), finds the checkpoint to start
 * at (the thread's head, or the one a fork names), loads its state, then applies what the run brings: an input, a
 * command or nothing (the last two are {@link Pauses}'s).
 */
final class RunStart {

    private final CompiledGraph graph;
    private final RunRequest req;
    private final String threadId;
    private final String ns;
    private final Checkpointer store;
    private final StateLoader loader;
    private final WriteQueue writes;
    private final RunPosition position;
    private final Pauses pauses;

    RunStart(CompiledGraph graph, RunRequest req, String ns, Checkpointer store, StateLoader loader, WriteQueue writes,
             RunPosition position, Pauses pauses) {
        this.graph = graph;
        this.req = req;
        this.threadId = req.threadId();
        this.ns = ns;
        this.store = store;
        this.loader = loader;
        this.writes = writes;
        this.position = position;
        this.pauses = pauses;
    }

    /** Positions the run; the item says whether it passes the breakpoint before the step it starts at. */
    Uni<Boolean> prepare() {
        if (threadId == null || threadId.isBlank()) {
            return Uni.createFrom().failure(new GraphException(GraphException.Code.INVALID_REQUEST, "a run needs a thread id"));
        }
        if (req.runId() != null && !isUuid(req.runId())) {
            return Uni.createFrom().failure(new GraphException(GraphException.Code.INVALID_REQUEST, "run ids are UUIDs: " + req.runId()));
        }
        if (req.input() != null && req.command() != null) {
            return Uni.createFrom().failure(new GraphException(GraphException.Code.INVALID_REQUEST, "a run takes an input or a command, not both"));
        }
        // after the thread's previous run's writes: a cancelled run's may still be on their way
        return writes.flush().flatMap(v -> store.head(threadId, ns)).flatMap(head -> {
            position.expectHead(head.map(h -> h.checkpoint().id()).orElse(null));
            if (req.checkpointId() == null) {
                return Uni.createFrom().item(head);
            }
            return store.get(threadId, ns, req.checkpointId()).map(found -> {
                if (found.isEmpty()) {
                    throw new GraphException(GraphException.Code.UNKNOWN_THREAD, "thread " + threadId + " has no checkpoint " + req.checkpointId());
                }
                return found;
            });
        }).flatMap(this::position);
    }

    private Uni<Boolean> position(Optional<Head> start) {
        if (start.isEmpty()) {
            if (req.input() == null) {
                throw new GraphException(GraphException.Code.UNKNOWN_THREAD, "thread " + threadId + " does not exist; start it with an input");
            }
            position.startEmpty(graph.schema().initialState());
            return beginTurn();
        }
        position.startAt(start.get());
        return loader.load(start.get().checkpoint()).flatMap(s -> {
            position.loaded(s);
            if (req.input() != null) {
                return beginTurn();
            }
            return req.command() != null ? pauses.applyCommand(req.command()) : pauses.continueRun();
        });
    }

    /** A new input: a checkpoint of its own (source {@code input}, or {@code fork} from an older checkpoint). */
    private Uni<Boolean> beginTurn() {
        Update input = req.input();
        StepAlgebra.checkWrites(graph.schema(), input, "the input");
        Folded after = StepAlgebra.fold(position.state(), List.of(input));
        List<TaskSpec> next = StepAlgebra.route(graph, List.of(StateGraph.START), List.of(input), after.state());
        position.records(Map.of());
        CheckpointSource source = req.checkpointId() != null ? CheckpointSource.FORK : CheckpointSource.INPUT;
        int step = position.checkpoint() == null ? -1 : position.checkpoint().step() + 1; // a thread's input is step -1
        return position.persist(position.checkpointFor(after, next, source, step)).map(v -> false);
    }

    private static boolean isUuid(String s) {
        try {
            return s.length() == 36 && UUID.fromString(s) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
