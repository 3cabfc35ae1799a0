package io.conduit.runs.cluster;

import io.conduit.runs.events.RunEvent;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The table through which replicas on one database pass each other the frames of the runs they execute, and the
 * wake-ups that go with it (PostgreSQL's {@code LISTEN/NOTIFY} in {@code persistence}). A replica relays a thread's
 * frames of a format only while another replica's clients watch the thread in that format.
 */
public interface FrameExchange {

    /**
     * A relayed frame ({@code event}), or the end of run {@code endedRunId} on the replica that executed it
     * ({@code event == null}). {@code id} orders a thread's rows; {@code origin} is the process that wrote it.
     */
    record Frame(long id, String threadId, String format, String origin, RunEvent event, String endedRunId) {

        static Frame of(String threadId, String format, String origin, RunEvent event) {
            return new Frame(0, threadId, format, origin, event, null);
        }

        static Frame end(String threadId, String origin, String runId) {
            return new Frame(0, threadId, "", origin, null, runId);
        }
    }

    /** Process {@code origin} executes {@code runId} of {@code threadId}, which another process may have created. */
    record Claim(String threadId, String runId, String origin) {
    }

    /** Clients of process {@code origin} read {@code threadId} in {@code format}. */
    record Watch(String threadId, String format, String origin) {
    }

    /** Stores the frames in one statement (a frame already stored is skipped) and wakes the replicas of their threads. */
    Uni<Void> append(List<Frame> frames);

    /** Where a watcher reads a thread from: its rows after {@code afterId}. */
    record Cursor(String threadId, long afterId) {
    }

    /**
     * What one read of many threads found: their rows, each thread's oldest first, and each thread's newest id (0 when
     * it has none), from the same snapshot: fewer than a cursor's {@code afterId} means the table's ids started again.
     */
    record Rows(List<Frame> frames, Map<String, Long> newest) {
    }

    /** The rows of every cursor's thread after its {@code afterId}, at most {@code limit} per thread, in one query. */
    Uni<Rows> after(List<Cursor> cursors, int limit);

    /**
     * A batch a process stored: its rows' ids run from {@code firstId} to {@code lastId} (not every id between is its),
     * and it holds frames of {@code threadIds}; null when it held more threads than a wake-up can name (any thread
     * may be among them).
     */
    record Appended(String origin, long firstId, long lastId, List<String> threadIds) {

        public boolean named() {
            return threadIds != null;
        }
    }

    /**
     * The rows the processes of {@code since} stored after the id given for each, oldest first, at most {@code limit}
     * of each process.
     * A process's rows commit in id order, so reading on from the last id read misses none.
     */
    Uni<List<Frame>> since(Map<String, Long> since, int limit);

    /** Records a watch for {@code ttl} and wakes every replica with it. */
    Uni<Void> watch(Watch watch, Duration ttl);

    /**
     * Records {@code held} (the watches of one process) for {@code ttl} more, again if they were lost (an unlogged
     * table is emptied by a database crash), and drops those it gave up ({@code gone}).
     */
    Uni<Void> renew(List<Watch> held, List<Watch> gone, Duration ttl);

    /** The watches not expired. */
    Uni<List<Watch>> watches();

    /** Deletes frames older than {@code retention} and expired watches; how many frames went. */
    Uni<Integer> expire(Duration retention);

    /** Tells every replica that process {@code origin} executes {@code runId}, which it did not create. */
    Uni<Void> claimed(String threadId, String runId, String origin);

    /** Calls {@code claim} with every run a process tells it executes ({@link #claimed}). */
    void onClaimed(Consumer<Claim> claim);

    /** Calls {@code batch} with every batch of frames stored (by any replica). */
    void onAppended(Consumer<Appended> batch);

    /**
     * Calls {@code resumed} each time the wake-ups of {@link #onAppended} (re)start: those sent while they were down are
     * lost, and what ends them may have emptied the table (a database crash).
     */
    void onResumed(Runnable resumed);

    /** Calls {@code watch} with every watch recorded (by any replica). */
    void onWatch(Consumer<Watch> watch);
}
