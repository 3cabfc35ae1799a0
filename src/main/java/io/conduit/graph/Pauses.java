package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.graph.StepAlgebra.Folded;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run's pauses, both ways. Stopping: a node's interrupts and a static breakpoint are stored as pending writes of
 * the step's checkpoint, and the run ends {@code Interrupted}. Going on: a command's answers, update and goto, or a
 * plain continuation past a breakpoint, applied to the unfinished step the run starts at.
 */
final class Pauses {

    private final CompiledGraph graph;
    private final String threadId;
    private final RunPosition position;
    private final RunOutput output;

    Pauses(CompiledGraph graph, String threadId, RunPosition position, RunOutput output) {
        this.graph = graph;
        this.threadId = threadId;
        this.position = position;
        this.output = output;
    }

    // ---- going on; each returns whether the run passes the breakpoint before the step it stopped at

    Uni<Boolean> applyCommand(Command command) {
        Map<String, TaskRecord> records = position.records();
        List<Interrupt> pending = pendingInterrupts();
        boolean atBreakpoint = records.values().stream().anyMatch(r -> r.breakpoint != null);
        boolean beforeBreakpoint = stoppedBeforeBreakpoint();
        if (command.resumes() && pending.isEmpty() && !atBreakpoint) {
            throw new GraphException(GraphException.Code.NO_PENDING_INTERRUPT, "thread " + threadId + " has no pending interrupt to resume");
        }
        for (String id : command.resumeById().keySet()) {
            if (pending.stream().noneMatch(i -> i.id().equals(id))) {
                throw new GraphException(GraphException.Code.NO_PENDING_INTERRUPT, "thread " + threadId + " has no pending interrupt " + id);
            }
        }
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
                return Uni.createFrom().item(beforeBreakpoint);
            }
            position.markWrites();
            return position.putWrites(position.checkpoint().id(), answers).map(v -> beforeBreakpoint);
        }
        Update update = command.update() != null ? command.update() : Update.none();
        StepAlgebra.checkWrites(graph.schema(), update, "the command's update");
        State state = position.state();
        Folded after = StepAlgebra.fold(state, List.of(update));
        List<TaskSpec> next = command.goTo().isEmpty() ? position.checkpoint().next()
                : StepAlgebra.route(graph, List.of(StateGraph.START), List.of(Update.none().goTo(command.goTo().toArray(String[]::new))), after.state());
        Map<String, TaskRecord> carried = command.goTo().isEmpty() ? records : Map.of();
        Checkpoint cp = position.checkpointFor(after, next, CheckpointSource.UPDATE, position.checkpoint().step() + 1);
        return position.persist(cp).flatMap(v -> carryOver(carried, cp)).map(v -> beforeBreakpoint);
    }

    /** After an update, the unfinished step moves to the new checkpoint: finished tasks and answers come along. */
    private Uni<Void> carryOver(Map<String, TaskRecord> old, Checkpoint cp) {
        StepAlgebra.Carried carried = StepAlgebra.carryOver(old, cp);
        position.records(carried.records());
        List<PendingWrite> rewritten = carried.writes();
        if (rewritten.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        position.markWrites();
        return position.putWrites(cp.id(), rewritten);
    }

    Uni<Boolean> continueRun() {
        if (!pendingInterrupts().isEmpty()) {
            throw new GraphException(GraphException.Code.RESUME_REQUIRED, "thread " + threadId
                    + " is waiting at an interrupt; resume it with a command carrying the answer");
        }
        return Uni.createFrom().item(stoppedBeforeBreakpoint());
    }

    private List<Interrupt> pendingInterrupts() {
        List<Interrupt> out = new ArrayList<>();
        position.records().values().forEach(r -> out.addAll(r.pendingInterrupts()));
        return out;
    }

    private boolean stoppedBeforeBreakpoint() {
        return position.records().values().stream().anyMatch(r -> r.breakpoint != null && r.breakpoint.when() == Interrupt.When.BEFORE);
    }

    // ---- stopping; each ends the run

    /** Whether a task of the step raised an interrupt. */
    static boolean anyInterrupted(List<TaskRunner.Outcome> outcomes) {
        return outcomes.stream().anyMatch(o -> o.failure() instanceof NodeInterrupt ni && !ni.interrupts().isEmpty());
    }

    /** Stores the step's interrupts, each numbered after the answers its task already had, and ends the run. */
    Uni<Boolean> interrupted(List<TaskRunner.Outcome> outcomes, int step) {
        List<PendingWrite> interruptWrites = new ArrayList<>();
        List<Interrupt> interrupts = new ArrayList<>();
        for (TaskRunner.Outcome o : outcomes) {
            if (o.failure() instanceof NodeInterrupt ni) {
                TaskRecord rec = position.records().get(o.task().id());
                int k = rec == null ? 0 : rec.resumes.size();
                for (Interrupt i : ni.interrupts()) {
                    interruptWrites.add(TaskRecord.interrupt(o.task(), k++, i));
                    interrupts.add(i);
                }
            }
        }
        String at = position.checkpoint().id();
        return position.putWrites(at, interruptWrites)
                .flatMap(v -> output.end(new GraphEvent.Interrupted(output.tag(null, step), interrupts, at)));
    }

    /** Stores a static breakpoint at checkpoint {@code at} and ends the run there. */
    Uni<Boolean> breakpoint(String taskId, String node, Interrupt.When when, Checkpoint at) {
        Interrupt i = new Interrupt(taskId + "#" + when.wire(), Map.of("node", node, "when", when.wire()), node, taskId, when);
        PendingWrite w = TaskRecord.breakpoint(taskId, node, i);
        return position.putWrites(at.id(), List.of(w))
                .flatMap(v -> output.end(new GraphEvent.Interrupted(output.tag(null, at.step()), List.of(i), at.id())));
    }
}
