package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the tasks of one superstep, concurrently, each on the state as it was when the step began, with its events
 * ({@code TaskStarted}, {@code TaskFinished}). A task that finished before a crash or an interrupt is not run again.
 * A task's failure is its outcome, not the step's: the run loop decides what the step's outcomes mean.
 */
final class TaskRunner {

    /** How a task ended: with its update, or with a failure (an interrupt among them). */
    record Outcome(Task task, Update update, Throwable failure) {
    }

    private final CompiledGraph graph;
    private final RunLoop run;
    private final RunPosition position;
    private final RunOutput output;
    private final StepAlgebra.Origin origin;

    TaskRunner(CompiledGraph graph, RunLoop run, RunPosition position, RunOutput output, StepAlgebra.Origin origin) {
        this.graph = graph;
        this.run = run;
        this.position = position;
        this.output = output;
        this.origin = origin;
    }

    /** Runs {@code tasks} on {@code input}, the state at checkpoint {@code at}; their outcomes come in task order. */
    Uni<List<Outcome>> run(List<Task> tasks, State input, Checkpoint at, int step) {
        boolean recordEach = tasks.size() > 1;
        if (recordEach) {
            position.markWrites();
        }
        if (tasks.size() == 1) {
            return runOrReuse(tasks.get(0), input, at, step, false).map(List::of);
        }
        List<Uni<Outcome>> runs = new ArrayList<>(tasks.size());
        for (Task t : tasks) {
            runs.add(runOrReuse(t, input, at, step, recordEach));
        }
        return Uni.join().all(runs).andFailFast();
    }

    private Uni<Outcome> runOrReuse(Task task, State input, Checkpoint at, int step, boolean recordEach) {
        TaskRecord rec = position.records().get(task.id());
        if (rec != null && rec.done) {
            return Uni.createFrom().item(new Outcome(task, rec.update, null)); // finished before a crash or interrupt
        }
        Node node = graph.node(task.node());
        if (node == null) {
            return Uni.createFrom().item(new Outcome(task, null, new GraphException(GraphException.Code.UNKNOWN_TARGET,
                    "checkpoint " + at.id() + " schedules node " + task.node() + ", which this graph does not have")));
        }
        GraphEvent.Tag tag = new GraphEvent.Tag(origin.runId(), origin.threadId(), origin.ns(), task.node(), step, task.id());
        output.emit(new GraphEvent.TaskStarted(tag, task.id()));
        TaskContext ctx = new TaskContext(run, task, tag, rec == null ? List.of() : rec.resumes);
        Uni<Outcome> ran = Uni.createFrom().deferred(() -> node.run(input, ctx))
                .onItem().ifNull().continueWith(Update::none)
                .map(u -> {
                    StepAlgebra.checkWrites(graph.schema(), u, "node " + task.node());
                    output.emit(new GraphEvent.TaskFinished(tag, task.id(), u));
                    return new Outcome(task, u, null);
                })
                .onFailure().recoverWithItem(t -> new Outcome(task, null, t));
        if (!recordEach) {
            return ran;
        }
        // in a step of several tasks, each one's writes are stored as it finishes: a crash re-runs only the others
        return ran.call(o -> o.failure() == null
                ? position.putWrites(at.id(), TaskRecord.finished(task, o.update()))
                : Uni.createFrom().voidItem());
    }

    /** The failure of the first task, in task order, that failed other than by an interrupt; null if none did. */
    static GraphException failure(List<Outcome> outcomes) {
        for (Outcome o : outcomes) {
            if (o.failure() != null && !(o.failure() instanceof NodeInterrupt)) {
                return nodeFailure(o);
            }
        }
        return null;
    }

    private static GraphException nodeFailure(Outcome o) {
        Throwable t = o.failure();
        if (t instanceof GraphException g) {
            return g;
        }
        if (t instanceof CheckpointConflictException c) {
            return new GraphException(GraphException.Code.CONFLICT, c.getMessage(), c);
        }
        String why = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return new GraphException(GraphException.Code.NODE_FAILED, "node " + o.task().node() + " failed: " + why, t);
    }
}
