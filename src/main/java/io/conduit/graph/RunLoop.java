package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.graph.StepAlgebra.Folded;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run of a graph on a thread, in supersteps (Pregel/BSP, as LangGraph): the tasks of a step run concurrently
 * on the state as it was when the step began; their writes are folded in task order, the routers pick the next
 * tasks from the new state, and the step is checkpointed. This class is the loop; the rest is in small parts:
 * the rules of a step (fold, route, the checkpoint record, the task list) are {@link StepAlgebra}'s, where the run
 * starts is {@link RunStart}'s, where it stands and what it stores is {@link RunPosition}'s, running the tasks is
 * {@link TaskRunner}'s, interrupts, breakpoints and resumes are {@link Pauses}'s, and the events and the one end
 * are {@link RunOutput}'s. Steps follow each other through a {@link DrainLoop}, so steps that complete
 * synchronously do not deepen the stack.
 */
final class RunLoop {

    private final CompiledGraph graph;
    private final RunRequest req;
    private final String threadId;
    private final String ns;
    private final Checkpointer store;
    private final WriteQueue writes;
    private final int recursionLimit;
    private final Set<String> interruptBefore;
    private final Set<String> interruptAfter;

    private final RunOutput output;
    private final RunPosition position;
    private final DrainLoop drain;
    private final RunStart begin;
    private final TaskRunner tasks;
    private final Pauses pauses;

    /** Whether the next step passes the breakpoint before it: the run was resumed or continued from there. */
    private boolean passBreakpointBefore;
    private int stepsRun;

    RunLoop(CompiledGraph graph, RunRequest req, String ns, Checkpointer store, StateLoader loader, RunEventStream.Emitter out) {
        this.graph = graph;
        this.req = req;
        this.threadId = req.threadId();
        this.ns = ns;
        String runId = req.runId() != null ? req.runId() : TimeOrderedIds.next();
        this.store = store;
        this.writes = graph.queueFor(threadId, ns, req.durability(), req.fence());
        this.recursionLimit = req.recursionLimit() != null ? req.recursionLimit() : graph.options().recursionLimit();
        this.interruptBefore = union(graph.options().interruptBefore(), req.interruptBefore());
        this.interruptAfter = union(graph.options().interruptAfter(), req.interruptAfter());
        StepAlgebra.Origin origin = new StepAlgebra.Origin(threadId, ns, runId, req.metadata());
        this.output = new RunOutput(out, writes, runId, threadId, ns);
        this.position = new RunPosition(graph, store, loader, writes, origin);
        this.drain = new DrainLoop(output, this::fail);
        this.pauses = new Pauses(graph, threadId, position, output);
        this.begin = new RunStart(graph, req, ns, store, loader, writes, position, pauses);
        this.tasks = new TaskRunner(graph, this, position, output, origin);
    }

    void start() {
        output.onTermination(() -> {
            graph.ended(threadId, ns, writes);
            drain.cancel(); // stops the node in flight; writes already queued still reach the store
        });
        drain.then(begin.prepare(), pass -> {
            passBreakpointBefore = pass;
            Checkpoint checkpoint = position.checkpoint();
            output.emit(new GraphEvent.RunStarted(output.tag(null, checkpoint.step()), checkpoint.id()));
            if (req.input() == null) {
                // as LangGraph does: a run that resumes or continues a thread first tells the state it starts from, so
                // that a values stream (and runs/wait) has the state even when the run pauses again before a step ends
                output.emit(new GraphEvent.Values(output.tag(null, checkpoint.step()), position.state(), checkpoint.id(), true));
            }
            loop();
        });
    }

    private void loop() {
        drain.then(step(), more -> {
            if (more) {
                loop();
            }
        });
    }

    private void fail(Throwable failure) {
        output.fail(failure, position.step());
    }

    // ---- one superstep

    private Uni<Boolean> step() {
        Throwable failed = writes.failure();
        if (failed != null) {
            return Uni.createFrom().failure(failed);
        }
        Checkpoint at = position.checkpoint();
        if (at.next().isEmpty()) {
            return output.end(new GraphEvent.RunFinished(output.tag(null, at.step()), position.state(), at.id()));
        }
        if (stepsRun >= recursionLimit) {
            return Uni.createFrom().failure(new GraphException(GraphException.Code.RECURSION_LIMIT, "recursion limit of "
                    + recursionLimit + " steps reached without reaching END; raise it with recursionLimit if the graph is meant to run longer"));
        }
        List<Task> scheduled = StepAlgebra.tasks(at);
        if (!passBreakpointBefore && !interruptBefore.isEmpty()) {
            for (Task t : scheduled) {
                if (interruptBefore.contains(t.node())) {
                    return pauses.breakpoint(t.id(), t.node(), Interrupt.When.BEFORE, at);
                }
            }
        }
        passBreakpointBefore = false;
        int step = at.step() + 1;
        return tasks.run(scheduled, position.state(), at, step).flatMap(outcomes -> afterStep(scheduled, outcomes, step));
    }

    private Uni<Boolean> afterStep(List<Task> scheduled, List<TaskRunner.Outcome> outcomes, int step) {
        GraphException failed = TaskRunner.failure(outcomes);
        if (failed != null) {
            return Uni.createFrom().failure(failed);
        }
        if (Pauses.anyInterrupted(outcomes)) {
            return pauses.interrupted(outcomes, step);
        }
        List<Update> updates = outcomes.stream().map(TaskRunner.Outcome::update).toList();
        Folded folded = StepAlgebra.fold(position.state(), updates);
        State after = folded.state();
        List<String> ran = scheduled.stream().map(Task::node).toList();
        List<TaskSpec> next = StepAlgebra.route(graph, ran, updates, after);
        Checkpoint at = position.checkpoint();
        boolean clearWrites = position.hasWrites();
        Checkpoint cp = position.checkpointFor(folded, next, CheckpointSource.LOOP, step);
        position.records(Map.of());
        stepsRun++;
        Uni<Void> stored = position.persist(cp);
        if (clearWrites) {
            // the step is in its checkpoint now; what its tasks recorded only served to resume it. Queued behind
            // the checkpoint, so a failed put leaves them in place
            position.deleteWrites(at.id());
        }
        return stored.flatMap(v -> {
            output.emit(new GraphEvent.Values(output.tag(null, step), after, cp.id()));
            for (String node : ran) {
                if (interruptAfter.contains(node)) {
                    return pauses.breakpoint(cp.id() + ".after", node, Interrupt.When.AFTER, cp);
                }
            }
            return Uni.createFrom().item(true);
        });
    }

    // ---- for the contexts of the run's tasks (and the subgraphs they run)

    void emit(GraphEvent event) {
        output.emit(event);
    }

    Checkpointer store() {
        return store;
    }

    Durability durability() {
        return req.durability();
    }

    Map<String, Object> configurable() {
        return req.configurable();
    }

    WriteFence fence() {
        return req.fence();
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
