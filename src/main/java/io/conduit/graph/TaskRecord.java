package io.conduit.graph;

import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.kernel.Codec;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the store knows of one task of an unfinished superstep, decoded from its {@link PendingWrite}s, and the
 * encoding the other way. Reserved channels use negative indexes so they never collide with channel writes.
 */
final class TaskRecord {

    private static final int DONE_IDX = -1;
    private static final int GOTO_IDX = -2;
    private static final int BREAKPOINT_IDX = -3;
    private static final int INTERRUPT_IDX = -100;
    private static final int RESUME_IDX = -10_000;
    static final Codec<Interrupt> INTERRUPT_CODEC = new InterruptCodec();
    static final JsonCodec<Object> ANY = JsonCodec.of(Object.class);
    private static final JsonCodec<List<String>> NAMES = JsonCodec.of(
            JsonCodec.MAPPER.getTypeFactory().constructCollectionType(List.class, String.class));

    boolean done;
    Update update = Update.none();
    final List<Interrupt> interrupts = new ArrayList<>();
    final List<Stored> resumes = new ArrayList<>();
    /** A static breakpoint the run stopped at, if any. */
    Interrupt breakpoint;

    /** Interrupts raised and not yet answered. */
    List<Interrupt> pendingInterrupts() {
        return done ? List.of() : interrupts.subList(Math.min(resumes.size(), interrupts.size()), interrupts.size());
    }

    static Map<String, TaskRecord> decode(List<PendingWrite> writes, StateSchema schema, String threadId) {
        Map<String, TaskRecord> tasks = new HashMap<>();
        List<PendingWrite> sorted = new ArrayList<>(writes);
        sorted.sort(java.util.Comparator.comparingInt(w -> order(w.idx())));
        for (PendingWrite w : sorted) {
            TaskRecord r = tasks.computeIfAbsent(w.taskId(), k -> new TaskRecord());
            switch (w.channel()) {
                case PendingWrite.DONE -> r.done = true;
                case PendingWrite.GOTO -> r.update = r.update.goTo(NAMES.fromLive(decodeOrFail(w, NAMES, threadId)).toArray(String[]::new));
                case PendingWrite.INTERRUPT -> {
                    Interrupt i = decodeOrFail(w, INTERRUPT_CODEC, threadId);
                    if (w.idx() == BREAKPOINT_IDX) {
                        r.breakpoint = i;
                    } else {
                        r.interrupts.add(i);
                    }
                }
                case PendingWrite.RESUME -> r.resumes.add(w.value());
                default -> {
                    Channel<?, ?> ch = schema.channel(w.channel());
                    if (ch == null) {
                        throw new GraphException(GraphException.Code.STATE_CORRUPTED, "thread " + threadId
                                + " has a pending write to channel " + w.channel() + ", which this graph does not declare");
                    }
                    r.update = write(r.update, ch, decodeOrFail(w, ch.writeCodec(), threadId));
                }
            }
        }
        return tasks;
    }

    /** Sorts writes within their kind: channel writes, interrupts and resumes each in the order they were made. */
    private static int order(int idx) {
        if (idx >= 0) {
            return idx;
        }
        return idx <= RESUME_IDX ? RESUME_IDX - idx : idx <= INTERRUPT_IDX ? INTERRUPT_IDX - idx : 0;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Update write(Update u, Channel ch, Object value) {
        return u.set(ch, value);
    }

    private static <T> T decodeOrFail(PendingWrite w, Codec<T> codec, String threadId) {
        try {
            return w.value().decode(codec);
        } catch (RuntimeException e) {
            throw new GraphException(GraphException.Code.STATE_CORRUPTED, "thread " + threadId + ": pending write to "
                    + w.channel() + " of task " + w.taskId() + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The writes recording a finished task. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<PendingWrite> finished(Task task, Update update) {
        List<PendingWrite> out = new ArrayList<>(update.writes().size() + 2);
        int i = 0;
        for (Update.Write w : update.writes()) {
            Channel ch = w.channel();
            out.add(new PendingWrite(task.id(), task.node(), i++, ch.name(), Stored.live(w.value(), ch.writeCodec())));
        }
        if (!update.goTo().isEmpty()) {
            out.add(new PendingWrite(task.id(), task.node(), GOTO_IDX, PendingWrite.GOTO, Stored.live(update.goTo(), NAMES)));
        }
        out.add(new PendingWrite(task.id(), task.node(), DONE_IDX, PendingWrite.DONE, Stored.live(Boolean.TRUE, JsonCodec.of(Boolean.class))));
        return out;
    }

    static PendingWrite interrupt(Task task, int k, Interrupt interrupt) {
        return new PendingWrite(task.id(), task.node(), INTERRUPT_IDX - k, PendingWrite.INTERRUPT, Stored.live(interrupt, INTERRUPT_CODEC));
    }

    static PendingWrite breakpoint(String taskId, String node, Interrupt interrupt) {
        return new PendingWrite(taskId, node, BREAKPOINT_IDX, PendingWrite.INTERRUPT, Stored.live(interrupt, INTERRUPT_CODEC));
    }

    static PendingWrite resume(String taskId, String node, int k, Stored value) {
        return new PendingWrite(taskId, node, RESUME_IDX - k, PendingWrite.RESUME, value);
    }
}
