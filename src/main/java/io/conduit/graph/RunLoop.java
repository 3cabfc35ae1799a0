package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.checkpoint.TimeOrderedIds;
import io.conduit.graph.StepAlgebra.Folded;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One run of a graph on a thread, in supersteps (Pregel/BSP, as LangGraph): the tasks of a step run concurrently
 * on the state as it was when the step began; their writes are folded in task order, the routers pick the next
 * tasks from the new state, and the step is checkpointed. The rules of a step (fold, route, the checkpoint record,
 * the task list) are {@link StepAlgebra}'s; this class runs them: the loop, the store, the events. The loop is a
 * drain loop, so steps that complete synchronously do not deepen the stack.
 */
final class RunLoop {

    private static final GraphException.Code NODE_FAILED = GraphException.Code.NODE_FAILED;

    private final CompiledGraph graph;
    private final RunRequest req;
    private final String threadId;
    private final String ns;
    private final String runId;
    private final Checkpointer store;
    private final StateLoader loader;
    private final MultiEmitter<? super GraphEvent> out;
    private final WriteQueue writes;
    private final int recursionLimit;
    private final Set<String> interruptBefore;
    private final Set<String> interruptAfter;
    private final StepAlgebra.Origin origin;

    /** Where the run stands: the last checkpoint, the state it holds, and what its unfinished step recorded. */
    private Checkpoint checkpoint;
    private State state;
    private Map<String, TaskRecord> records = Map.of();
    private String expectedHead;
    private boolean checkpointHasSnapshot;
    /** Whether the store holds pending writes against {@code checkpoint}, to delete once the step after it is stored. */
    private boolean checkpointHasWrites;
    private boolean passBreakpointBefore;
    private int stepsRun;

    private volatile boolean ended;
    private volatile Cancellable inflight;
    private final AtomicInteger wip = new AtomicInteger();
    private volatile Runnable next;

    RunLoop(CompiledGraph graph, RunRequest req, String ns, Checkpointer store, StateLoader loader, MultiEmitter<? super GraphEvent> out) {
        this.graph = graph;
        this.req = req;
        this.threadId = req.threadId();
        this.ns = ns;
        this.runId = req.runId() != null ? req.runId() : TimeOrderedIds.next();
        this.store = store;
        this.loader = loader;
        this.out = out;
        this.writes = graph.queueFor(threadId, ns, req.durability());
        this.recursionLimit = req.recursionLimit() != null ? req.recursionLimit() : graph.options().recursionLimit();
        this.interruptBefore = union(graph.options().interruptBefore(), req.interruptBefore());
        this.interruptAfter = union(graph.options().interruptAfter(), req.interruptAfter());
        this.origin = new StepAlgebra.Origin(threadId, ns, runId, req.metadata());
    }

    void start() {
        out.onTermination(() -> {
            ended = true;
            graph.ended(threadId, ns, writes);
            Cancellable c = inflight;
            if (c != null) {
                c.cancel(); // stops the node in flight; writes already queued still reach the store
            }
        });
        then(prepare(), v -> {
            emit(new GraphEvent.RunStarted(tag(null, checkpoint.step()), checkpoint.id()));
            loop();
        });
    }

    // ---- the drain loop

    private <T> void then(Uni<T> uni, Consumer<T> continuation) {
        schedule(() -> {
            if (!ended) {
                Cancellable c = uni.subscribe().with(continuation, this::fail);
                inflight = c;
                if (ended) {
                    c.cancel(); // cancelled while subscribing: onTermination saw the previous inflight, not this one
                }
            }
        });
    }

    private void schedule(Runnable r) {
        next = r;
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            Runnable c = next;
            next = null;
            if (c != null) {
                c.run();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void loop() {
        then(step(), more -> {
            if (more) {
                loop();
            }
        });
    }

    // ---- where a run starts

    private Uni<Void> prepare() {
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
            expectedHead = head.map(h -> h.checkpoint().id()).orElse(null);
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

    private Uni<Void> position(Optional<Head> start) {
        if (start.isEmpty()) {
            if (req.input() == null) {
                throw new GraphException(GraphException.Code.UNKNOWN_THREAD, "thread " + threadId + " does not exist; start it with an input");
            }
            state = graph.schema().initialState();
            return beginTurn();
        }
        checkpoint = start.get().checkpoint();
        records = TaskRecord.decode(start.get().pendingWrites(), graph.schema(), threadId);
        checkpointHasWrites = !start.get().pendingWrites().isEmpty();
        return loader.load(checkpoint).flatMap(s -> {
            state = s;
            if (req.input() != null) {
                return beginTurn();
            }
            return req.command() != null ? applyCommand(req.command()) : continueRun();
        });
    }

    /** A new input: a checkpoint of its own (source {@code input}, or {@code fork} from an older checkpoint). */
    private Uni<Void> beginTurn() {
        Update input = req.input();
        StepAlgebra.checkWrites(graph.schema(), input, "the input");
        Folded after = StepAlgebra.fold(state, List.of(input));
        List<TaskSpec> next = StepAlgebra.route(graph, List.of(StateGraph.START), List.of(input), after.state());
        records = Map.of();
        CheckpointSource source = req.checkpointId() != null ? CheckpointSource.FORK : CheckpointSource.INPUT;
        return persist(checkpointFor(after, next, source, checkpoint == null ? -1 : checkpoint.step() + 1));
    }

    private Uni<Void> applyCommand(Command command) {
        List<Interrupt> pending = pendingInterrupts();
        boolean atBreakpoint = records.values().stream().anyMatch(r -> r.breakpoint != null);
        boolean beforeBreakpoint = records.values().stream().anyMatch(r -> r.breakpoint != null && r.breakpoint.when() == Interrupt.When.BEFORE);
        if (command.resumes() && pending.isEmpty() && !atBreakpoint) {
            throw new GraphException(GraphException.Code.NO_PENDING_INTERRUPT, "thread " + threadId + " has no pending interrupt to resume");
        }
        for (String id : command.resumeById().keySet()) {
            if (pending.stream().noneMatch(i -> i.id().equals(id))) {
                throw new GraphException(GraphException.Code.NO_PENDING_INTERRUPT, "thread " + threadId + " has no pending interrupt " + id);
            }
        }
        passBreakpointBefore = beforeBreakpoint;
        List<PendingWrite> answers = new ArrayList<>();
        for (Map.Entry<String, TaskRecord> e : records.entrySet()) {
            TaskRecord r = e.getValue();
            for (Interrupt i : List.copyOf(r.pendingInterrupts())) {
                Object value = command.resumeById().containsKey(i.id()) ? command.resumeById().get(i.id()) : command.resume();
                if (value != null) {
                    Stored stored = value instanceof Stored s ? s : Stored.live(value, TaskRecord.ANY);
                    answers.add(TaskRecord.resume(e.getKey(), i.node(), r.resumes.size(), stored));
                    r.resumes.add(stored);
                }
            }
        }
        if (command.update() == null && command.goTo().isEmpty()) {
            if (answers.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            checkpointHasWrites = true;
            return writes.submit(() -> store.putWrites(threadId, ns, checkpoint.id(), answers));
        }
        Update update = command.update() != null ? command.update() : Update.none();
        StepAlgebra.checkWrites(graph.schema(), update, "the command's update");
        Folded after = StepAlgebra.fold(state, List.of(update));
        List<TaskSpec> next = command.goTo().isEmpty() ? checkpoint.next()
                : StepAlgebra.route(graph, List.of(StateGraph.START), List.of(Update.none().goTo(command.goTo().toArray(String[]::new))), after.state());
        Map<String, TaskRecord> carried = command.goTo().isEmpty() ? records : Map.of();
        Checkpoint cp = checkpointFor(after, next, CheckpointSource.UPDATE, checkpoint.step() + 1);
        return persist(cp).flatMap(v -> carryOver(carried, cp));
    }

    /** After an update, the unfinished step moves to the new checkpoint: finished tasks and answers come along. */
    private Uni<Void> carryOver(Map<String, TaskRecord> old, Checkpoint cp) {
        StepAlgebra.Carried carried = StepAlgebra.carryOver(old, cp);
        records = carried.records();
        List<PendingWrite> rewritten = carried.writes();
        if (rewritten.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        checkpointHasWrites = true;
        return writes.submit(() -> store.putWrites(threadId, ns, cp.id(), rewritten));
    }

    private Uni<Void> continueRun() {
        if (!pendingInterrupts().isEmpty()) {
            throw new GraphException(GraphException.Code.RESUME_REQUIRED, "thread " + threadId
                    + " is waiting at an interrupt; resume it with a command carrying the answer");
        }
        passBreakpointBefore = records.values().stream().anyMatch(r -> r.breakpoint != null && r.breakpoint.when() == Interrupt.When.BEFORE);
        return Uni.createFrom().voidItem();
    }

    private List<Interrupt> pendingInterrupts() {
        List<Interrupt> out = new ArrayList<>();
        records.values().forEach(r -> out.addAll(r.pendingInterrupts()));
        return out;
    }

    // ---- one superstep

    private Uni<Boolean> step() {
        Throwable failed = writes.failure();
        if (failed != null) {
            return Uni.createFrom().failure(failed);
        }
        if (checkpoint.next().isEmpty()) {
            return end(new GraphEvent.RunFinished(tag(null, checkpoint.step()), state, checkpoint.id()));
        }
        if (stepsRun >= recursionLimit) {
            return Uni.createFrom().failure(new GraphException(GraphException.Code.RECURSION_LIMIT, "recursion limit of "
                    + recursionLimit + " steps reached without reaching END; raise it with recursionLimit if the graph is meant to run longer"));
        }
        List<Task> tasks = StepAlgebra.tasks(checkpoint);
        if (!passBreakpointBefore && !interruptBefore.isEmpty()) {
            for (Task t : tasks) {
                if (interruptBefore.contains(t.node())) {
                    return breakpoint(t.id(), t.node(), Interrupt.When.BEFORE, checkpoint);
                }
            }
        }
        passBreakpointBefore = false;
        int step = checkpoint.step() + 1;
        State input = state;
        Checkpoint at = checkpoint;
        boolean recordEach = tasks.size() > 1;
        checkpointHasWrites |= recordEach;
        if (tasks.size() == 1) {
            return runOrReuse(tasks.get(0), input, at, step, false).flatMap(o -> afterStep(tasks, List.of(o), step));
        }
        List<Uni<TaskOutcome>> runs = new ArrayList<>(tasks.size());
        for (Task t : tasks) {
            runs.add(runOrReuse(t, input, at, step, recordEach));
        }
        return Uni.join().all(runs).andFailFast().flatMap(outcomes -> afterStep(tasks, outcomes, step));
    }

    private record TaskOutcome(Task task, Update update, Throwable failure) {
    }

    private Uni<TaskOutcome> runOrReuse(Task task, State input, Checkpoint at, int step, boolean recordEach) {
        TaskRecord rec = records.get(task.id());
        if (rec != null && rec.done) {
            return Uni.createFrom().item(new TaskOutcome(task, rec.update, null)); // finished before a crash or interrupt
        }
        Node node = graph.node(task.node());
        if (node == null) {
            return Uni.createFrom().item(new TaskOutcome(task, null, new GraphException(GraphException.Code.UNKNOWN_TARGET,
                    "checkpoint " + at.id() + " schedules node " + task.node() + ", which this graph does not have")));
        }
        GraphEvent.Tag tag = new GraphEvent.Tag(runId, threadId, ns, task.node(), step, task.id());
        emit(new GraphEvent.TaskStarted(tag, task.id()));
        TaskContext ctx = new TaskContext(this, task, tag, rec == null ? List.of() : rec.resumes);
        Uni<TaskOutcome> run = Uni.createFrom().deferred(() -> node.run(input, ctx))
                .onItem().ifNull().continueWith(Update::none)
                .map(u -> {
                    StepAlgebra.checkWrites(graph.schema(), u, "node " + task.node());
                    emit(new GraphEvent.TaskFinished(tag, task.id(), u));
                    return new TaskOutcome(task, u, null);
                })
                .onFailure().recoverWithItem(t -> new TaskOutcome(task, null, t));
        if (!recordEach) {
            return run;
        }
        // in a step of several tasks, each one's writes are stored as it finishes: a crash re-runs only the others
        return run.call(o -> o.failure() == null
                ? writes.submit(() -> store.putWrites(threadId, ns, at.id(), TaskRecord.finished(task, o.update())))
                : Uni.createFrom().voidItem());
    }

    private Uni<Boolean> afterStep(List<Task> tasks, List<TaskOutcome> outcomes, int step) {
        List<PendingWrite> interruptWrites = new ArrayList<>();
        List<Interrupt> interrupts = new ArrayList<>();
        for (TaskOutcome o : outcomes) {
            if (o.failure() instanceof NodeInterrupt ni) {
                TaskRecord rec = records.get(o.task().id());
                int k = rec == null ? 0 : rec.resumes.size();
                for (Interrupt i : ni.interrupts()) {
                    interruptWrites.add(TaskRecord.interrupt(o.task(), k++, i));
                    interrupts.add(i);
                }
            } else if (o.failure() != null) {
                return Uni.createFrom().failure(nodeFailure(o));
            }
        }
        if (!interrupts.isEmpty()) {
            return writes.submit(() -> store.putWrites(threadId, ns, checkpoint.id(), interruptWrites))
                    .flatMap(v -> end(new GraphEvent.Interrupted(tag(null, step), interrupts, checkpoint.id())));
        }
        List<Update> updates = outcomes.stream().map(TaskOutcome::update).toList();
        Folded folded = StepAlgebra.fold(state, updates);
        State after = folded.state();
        List<String> ran = tasks.stream().map(Task::node).toList();
        List<TaskSpec> next = StepAlgebra.route(graph, ran, updates, after);
        Checkpoint at = checkpoint;
        boolean clearWrites = checkpointHasWrites;
        Checkpoint cp = checkpointFor(folded, next, CheckpointSource.LOOP, step);
        records = Map.of();
        stepsRun++;
        Uni<Void> stored = persist(cp);
        if (clearWrites) {
            // the step is in its checkpoint now; what its tasks recorded only served to resume it. Queued behind
            // the checkpoint, so a failed put leaves them in place
            writes.submit(() -> store.deleteWrites(threadId, ns, at.id()));
        }
        return stored.flatMap(v -> {
            emit(new GraphEvent.Values(tag(null, step), after, cp.id()));
            for (String node : ran) {
                if (interruptAfter.contains(node)) {
                    return breakpoint(cp.id() + ".after", node, Interrupt.When.AFTER, cp);
                }
            }
            return Uni.createFrom().item(true);
        });
    }

    private GraphException nodeFailure(TaskOutcome o) {
        Throwable t = o.failure();
        if (t instanceof GraphException g) {
            return g;
        }
        if (t instanceof CheckpointConflictException c) {
            return new GraphException(GraphException.Code.CONFLICT, c.getMessage(), c);
        }
        String why = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return new GraphException(NODE_FAILED, "node " + o.task().node() + " failed: " + why, t);
    }

    private Uni<Boolean> breakpoint(String taskId, String node, Interrupt.When when, Checkpoint at) {
        Interrupt i = new Interrupt(taskId + "#" + when.wire(), Map.of("node", node, "when", when.wire()), node, taskId, when);
        PendingWrite w = TaskRecord.breakpoint(taskId, node, i);
        return writes.submit(() -> store.putWrites(threadId, ns, at.id(), List.of(w)))
                .flatMap(v -> end(new GraphEvent.Interrupted(tag(null, at.step()), List.of(i), at.id())));
    }

    // ---- the step algebra, bound to this run (the rules themselves are in StepAlgebra)

    /** The checkpoint of a step built on the run's current one; the folded state becomes the run's state. */
    private Checkpoint checkpointFor(Folded folded, List<TaskSpec> next, CheckpointSource source, int step) {
        String id = TimeOrderedIds.next();
        state = folded.state();
        return StepAlgebra.checkpoint(origin, id, checkpoint, checkpointHasSnapshot, folded, next, source, step, TimeOrderedIds.millisOf(id));
    }

    /** Queues the checkpoint (waits for it in SYNC mode) and makes it the run's position. */
    private Uni<Void> persist(Checkpoint cp) {
        String expected = expectedHead;
        expectedHead = cp.id();
        checkpoint = cp;
        checkpointHasSnapshot = false;
        checkpointHasWrites = false;
        loader.remember(cp, state);
        Uni<Void> put = writes.submit(() -> store.put(cp, expected));
        if (StepAlgebra.snapshotDue(cp, graph.options().snapshotEvery())) {
            // queued behind the checkpoint, and not waited for: a snapshot only makes later reads cheaper
            Map<String, Stored> snapshot = StateLoader.snapshotOf(state);
            writes.submit(() -> store.putSnapshot(threadId, ns, cp.id(), snapshot));
            checkpointHasSnapshot = true;
        }
        return put;
    }

    // ---- events and endings

    GraphEvent.Tag tag(String node, int step) {
        return new GraphEvent.Tag(runId, threadId, ns, node, step);
    }

    void emit(GraphEvent event) {
        if (!ended) {
            out.emit(event);
        }
    }

    Checkpointer store() {
        return store;
    }

    Durability durability() {
        return req.durability();
    }

    java.util.Map<String, Object> configurable() {
        return req.configurable();
    }

    /** Ends the run once everything queued is stored: "finished" or "interrupted" is never said before that. */
    private Uni<Boolean> end(GraphEvent terminal) {
        return writes.flush().map(v -> {
            if (!ended) {
                out.emit(terminal);
                out.complete();
            }
            return false;
        });
    }

    private void fail(Throwable failure) {
        if (ended) {
            return;
        }
        Throwable t = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        GraphException g = t instanceof GraphException ge ? ge
                : t instanceof CheckpointConflictException c ? new GraphException(GraphException.Code.CONFLICT, c.getMessage(), c)
                : new GraphException(GraphException.Code.PERSISTENCE_FAILED, "the checkpoint store failed: " + t.getMessage(), t);
        int step = checkpoint == null ? -1 : checkpoint.step();
        // what was queued before the failure is still stored; then the run reports the failure
        writes.flush().onFailure().recoverWithNull().subscribe().with(v -> {
            if (!ended) {
                out.emit(new GraphEvent.RunFailed(tag(null, step), g.code().wire(), g.getMessage()));
                out.complete();
            }
        });
    }

    private static boolean isUuid(String s) {
        try {
            return s.length() == 36 && java.util.UUID.fromString(s) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        if (b.isEmpty()) {
            return a;
        }
        Set<String> s = new HashSet<>(a);
        s.addAll(b);
        return s;
    }
}
