package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The algebra of a superstep, as LangGraph's {@code pregel/_algo.py} is to its {@code _loop.py}: how a step's writes
 * fold into the state, where the run goes next, what the step's checkpoint records, and which tasks a checkpoint
 * schedules. Pure functions: values in, values out, no store, no events, no clock (callers pass ids in), so the run
 * loop and {@link CompiledGraph#updateState} apply steps the same way and each rule is tested on its own.
 */
final class StepAlgebra {

    private StepAlgebra() {
    }

    /** A step's writes grouped by channel position (in task order), and the state they fold into. */
    record Folded(State state, Map<Integer, List<Object>> writes) {
    }

    /** What every checkpoint of one run shares: where it is written, by which run, with which metadata. */
    record Origin(String threadId, String ns, String runId, Map<String, String> metadata) {
    }

    /** Fails with UNKNOWN_CHANNEL when an update writes to a channel the state does not declare. */
    static void checkWrites(StateSchema schema, Update u, String who) {
        for (Update.Write w : u.writes()) {
            if (schema.indexOf(w.channel().name()) < 0) {
                throw new GraphException(GraphException.Code.UNKNOWN_CHANNEL, who + " wrote to channel " + w.channel().name()
                        + ", which the state does not have");
            }
        }
    }

    /** Folds the updates of one step (or one input) into the state, channel by channel, in task order. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Folded fold(State state, List<Update> updates) {
        StateSchema schema = state.schema();
        Map<Integer, List<Object>> byChannel = new LinkedHashMap<>();
        for (Update u : updates) {
            for (Update.Write w : u.writes()) {
                byChannel.computeIfAbsent(schema.indexOf(w.channel().name()), k -> new ArrayList<>(2)).add(w.value());
            }
        }
        if (byChannel.isEmpty()) {
            return new Folded(state, byChannel);
        }
        Object[] values = state.copyValues();
        for (Map.Entry<Integer, List<Object>> e : byChannel.entrySet()) {
            Channel ch = schema.channels().get(e.getKey());
            // each channel sees all of the step's writes at once: a reducer folds them in task order
            values[e.getKey()] = ch.apply(values[e.getKey()], e.getValue());
        }
        return new Folded(state.with(values), byChannel);
    }

    /**
     * The tasks after a step in which the nodes {@code ran} (in task order) returned {@code updates}: their gotos,
     * static edges and routers (on the state after the step), deduplicated in that order, then the sends. END ends
     * a path; a target the graph does not have fails with UNKNOWN_TARGET.
     */
    static List<TaskSpec> route(CompiledGraph graph, List<String> ran, List<Update> updates, State after) {
        Set<String> nodes = new LinkedHashSet<>();
        List<TaskSpec> sends = new ArrayList<>();
        for (int i = 0; i < ran.size(); i++) {
            String from = ran.get(i);
            for (String to : updates.get(i).goTo()) {
                addTarget(graph, nodes, from, to);
            }
            for (String to : graph.edges(from)) {
                addTarget(graph, nodes, from, to);
            }
            for (StateGraph.Branch b : graph.branches(from)) {
                Route r;
                try {
                    r = b.router().route(after);
                } catch (RuntimeException e) {
                    throw new GraphException(GraphException.Code.NODE_FAILED, "the router after " + from + " failed: " + e.getMessage(), e);
                }
                if (r == null) {
                    throw new GraphException(GraphException.Code.UNKNOWN_TARGET, "the router after " + from + " returned no route");
                }
                for (String to : r.nodes()) {
                    addTarget(graph, nodes, from, to);
                }
                for (Send s : r.sends()) {
                    if (graph.node(s.node()) == null) {
                        throw unknownTarget(from, s.node());
                    }
                    sends.add(new TaskSpec(s.node(), Stored.live(s.input(), TaskRecord.ANY)));
                }
            }
        }
        List<TaskSpec> next = new ArrayList<>(nodes.size() + sends.size());
        for (String n : nodes) {
            next.add(TaskSpec.of(n));
        }
        next.addAll(sends);
        return next;
    }

    private static void addTarget(CompiledGraph graph, Set<String> nodes, String from, String to) {
        if (StateGraph.END.equals(to)) {
            return;
        }
        if (graph.node(to) == null) {
            throw unknownTarget(from, to);
        }
        nodes.add(to);
    }

    private static GraphException unknownTarget(String from, String to) {
        return new GraphException(GraphException.Code.UNKNOWN_TARGET, "the run was sent from " + from + " to unknown node " + to);
    }

    /**
     * The checkpoint of a step: only what it changed. Value channels it wrote store their new value; delta channels
     * (messages) store the step's writes, so a checkpoint's size follows the step, not the thread.
     *
     * @param parent            the checkpoint the step was built on, null for the first of a namespace
     * @param parentSnapshotted whether a snapshot was stored at {@code parent}: the chain since a snapshot restarts
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Checkpoint checkpoint(Origin origin, String id, Checkpoint parent, boolean parentSnapshotted, Folded folded,
                                 List<TaskSpec> next, CheckpointSource source, int step, long createdAtMillis) {
        StateSchema schema = folded.state().schema();
        Map<String, Stored> values = new HashMap<>();
        Map<String, Stored> deltas = new HashMap<>();
        for (Map.Entry<Integer, List<Object>> e : folded.writes().entrySet()) {
            Channel ch = schema.channels().get(e.getKey());
            if (ch.storesWrites()) {
                deltas.put(ch.name(), Stored.live(e.getValue(), ch.writesCodec()));
            } else {
                values.put(ch.name(), Stored.live(folded.state().valueAt(e.getKey()), ch.valueCodec()));
            }
        }
        int chain = parent == null || parentSnapshotted ? 1 : parent.chainLength() + 1;
        return new Checkpoint(origin.threadId(), origin.ns(), id, parent == null ? null : parent.id(), step, source,
                origin.runId(), values, deltas, next, origin.metadata(), createdAtMillis, chain);
    }

    /** An unfinished step's records moved to a new checkpoint, and the pending writes that store them there. */
    record Carried(Map<String, TaskRecord> records, List<PendingWrite> writes) {
    }

    /**
     * Moves the records of the step after {@code cp}'s parent to {@code cp} (an update that keeps the tasks): each
     * task of {@code cp} takes the record of the task at its position before, with its answers, its interrupts and,
     * if it finished, its writes. The old records are not changed.
     */
    static Carried carryOver(Map<String, TaskRecord> old, Checkpoint cp) {
        Map<String, TaskRecord> moved = new HashMap<>();
        List<PendingWrite> rewritten = new ArrayList<>();
        for (Task t : tasks(cp)) {
            TaskRecord r = old.get(Task.id(cp.parentId(), t.index()));
            if (r == null) {
                continue;
            }
            TaskRecord copy = new TaskRecord();
            copy.resumes.addAll(r.resumes);
            copy.interrupts.addAll(r.interrupts);
            for (int k = 0; k < r.resumes.size(); k++) {
                rewritten.add(TaskRecord.resume(t.id(), t.node(), k, r.resumes.get(k)));
            }
            // the interrupts too: a task's pending interrupts are those past its answers, so a later interrupt
            // of the task must find the earlier ones here, or it would read as already answered
            for (int k = 0; k < r.interrupts.size(); k++) {
                rewritten.add(TaskRecord.interrupt(t, k, r.interrupts.get(k)));
            }
            if (r.done) {
                copy.done = true;
                copy.update = r.update;
                rewritten.addAll(TaskRecord.finished(t, r.update));
            }
            moved.put(t.id(), copy);
        }
        return new Carried(moved, rewritten);
    }

    /** The tasks a checkpoint schedules; their ids come from the checkpoint and their position, so re-runs find them. */
    static List<Task> tasks(Checkpoint cp) {
        List<TaskSpec> specs = cp.next();
        List<Task> tasks = new ArrayList<>(specs.size());
        for (int i = 0; i < specs.size(); i++) {
            tasks.add(new Task(Task.id(cp.id(), i), specs.get(i).node(), specs.get(i).input(), i));
        }
        return tasks;
    }

    /**
     * Whether to store the full state at {@code cp}: every {@code every} checkpoints of a lineage, so that reading
     * any state replays at most that many checkpoints, however long the thread.
     */
    static boolean snapshotDue(Checkpoint cp, int every) {
        return cp.chainLength() >= Math.max(1, every);
    }
}
