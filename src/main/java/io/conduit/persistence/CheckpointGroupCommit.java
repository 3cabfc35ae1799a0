package io.conduit.persistence;

import io.conduit.persistence.CheckpointPut.Key;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Group commit of checkpoint puts: the puts of many threads go to PostgreSQL as one statement
 * ({@link CheckpointSql#PUT_MANY}), one round trip and one transaction (one WAL flush) for all of them, where each
 * put alone costs a statement, a commit and a flush, which is what bounds concurrent runs on a small machine.
 *
 * <p>No timer: while {@code maxInFlight} groups are on their way, puts queue, and when a group returns, all queued puts
 * go as the next one. A put that finds the way free waits only for the rest of the current event-loop turn, so the
 * puts that turn makes (the steps of other runs resumed by the same answer) go with it. A lone put goes as its own
 * statement ({@code PUT_FIRST} / {@code PUT_NEXT}), so one run alone waits exactly as long as without grouping.
 *
 * <p>A group holds at most one put per thread and namespace (the next waits for the next group): its puts are then
 * independent, and each gets the answer it would get alone, stored or lost compare-and-set. A failure of a group's
 * statement reaches each of its puts as {@link GroupFailed}, for the caller to sort out ({@link CheckpointWrites#put});
 * a lone put's failure is its own. Answers are delivered on the
 * Vert.x context each put was made on, as the client itself does.
 */
final class CheckpointGroupCommit {

    /** A put waiting for its answer: true when stored, false when its compare-and-set lost. */
    private record Waiting(CheckpointPut put, Context context, UniEmitter<? super Boolean> answer) {
    }

    private final SqlClient client;
    private final int maxPuts;
    private final int maxInFlight;
    private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
    /** Guarded by {@code this}, as {@link #queue} and {@link #flushScheduled}. */
    private int inFlight;
    private boolean flushScheduled;

    /**
     * @param maxPuts     the most puts in one statement
     * @param maxInFlight the most statements on their way at once (each on a connection of its own)
     */
    CheckpointGroupCommit(SqlClient client, int maxPuts, int maxInFlight) {
        this.client = client;
        this.maxPuts = maxPuts;
        this.maxInFlight = maxInFlight;
    }

    /** One statement on its way at a time, of up to 512 puts: see docs/benchmarks.md, "Group commit". */
    static CheckpointGroupCommit defaults(SqlClient client) {
        return new CheckpointGroupCommit(client, 512, 1);
    }

    /** Whether the put was stored (true) or lost its compare-and-set (false); fails when its statement failed. */
    Uni<Boolean> put(CheckpointPut put) {
        return Uni.createFrom().emitter(answer -> enqueue(new Waiting(put, Vertx.currentContext(), answer)));
    }

    private void enqueue(Waiting w) {
        List<Waiting> group = null;
        boolean schedule = false;
        synchronized (this) {
            queue.add(w);
            if (inFlight >= maxInFlight || flushScheduled) {
                return; // it goes with the next group
            }
            if (w.context() != null) {
                flushScheduled = true;
                schedule = true;
            } else {
                group = take();
            }
        }
        if (schedule) {
            // the end of this event-loop turn: the puts the turn still makes join this one
            w.context().runOnContext(v -> flush());
        } else {
            send(group);
        }
    }

    private void flush() {
        List<Waiting> group;
        synchronized (this) {
            flushScheduled = false;
            group = inFlight < maxInFlight ? take() : null;
        }
        send(group);
    }

    /** The next group, in arrival order, one put per thread and namespace; null when nothing waits. Holds the lock. */
    private List<Waiting> take() {
        if (queue.isEmpty()) {
            return null;
        }
        List<Waiting> group = new ArrayList<>(Math.min(queue.size(), maxPuts));
        Set<Key> keys = new HashSet<>();
        for (Iterator<Waiting> it = queue.iterator(); it.hasNext() && group.size() < maxPuts; ) {
            Waiting w = it.next();
            if (keys.add(w.put().key())) {
                group.add(w);
                it.remove();
            }
        }
        inFlight++;
        return group;
    }

    private void send(List<Waiting> group) {
        if (group == null) {
            return;
        }
        Uni<RowSet<Row>> statement;
        try {
            statement = group.size() == 1
                    ? client.preparedQuery(group.get(0).put().statement()).execute(group.get(0).put().args())
                    : client.preparedQuery(CheckpointSql.PUT_MANY).execute(CheckpointPut.group(group.stream().map(Waiting::put).toList()));
        } catch (RuntimeException e) {
            statement = Uni.createFrom().failure(e);
        }
        statement.subscribe().with(rows -> answer(group, rows), failure -> fail(group, failure));
    }

    private void answer(List<Waiting> group, RowSet<Row> rows) {
        next();
        boolean[] stored = new boolean[group.size()];
        if (group.size() == 1) {
            stored[0] = rows.rowCount() > 0;
        } else {
            for (Row r : rows) {
                stored[r.getInteger(0) - 1] = true;
            }
        }
        for (int i = 0; i < stored.length; i++) {
            boolean s = stored[i];
            Waiting w = group.get(i);
            deliver(w, () -> w.answer().complete(s));
        }
    }

    private void fail(List<Waiting> group, Throwable failure) {
        next();
        // a lone put's failure is its own; a group's may be any of its puts', which the caller must sort out
        Throwable given = group.size() == 1 ? failure : new GroupFailed(failure);
        for (Waiting w : group) {
            deliver(w, () -> w.answer().fail(given));
        }
    }

    /** The statement of a group of puts failed ({@link #getCause}): nothing of it is stored, unless the connection was lost. */
    static final class GroupFailed extends RuntimeException {
        GroupFailed(Throwable cause) {
            super("a group of checkpoint puts failed: " + cause.getMessage(), cause, false, false);
        }
    }

    /** A group returned: what queued meanwhile goes now, before the answers wake the runs that will queue more. */
    private void next() {
        List<Waiting> group;
        synchronized (this) {
            inFlight--;
            group = take();
        }
        send(group);
    }

    private static void deliver(Waiting w, Runnable answer) {
        if (w.context() == null || w.context() == Vertx.currentContext()) {
            answer.run();
        } else {
            w.context().runOnContext(v -> answer.run());
        }
    }
}
