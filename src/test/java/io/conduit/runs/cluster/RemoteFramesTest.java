package io.conduit.runs.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.FrameLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The watcher's side, over a table kept in a list: watches recorded and given up, rows read in order into the log. */
class RemoteFramesTest {

    private static final String CLASSIC = RunEventLogs.NAME;
    private final Table table = new Table();
    private final ThreadLogs logs = FrameLogs.of(Duration.ofMinutes(5), 1 << 20, 1 << 24);
    private final AtomicLong now = new AtomicLong(System.currentTimeMillis());
    private final RemoteFrames remote = new RemoteFrames(logs, table, "me", Duration.ofSeconds(30), now::get);
    private final List<Long> got = new ArrayList<>();

    @Test
    void aWatchIsRecordedOnceReadsTheRowsOfOtherProcessesAndIsGivenUpWithItsLastClient() {
        table.add("t", "other", 10);
        table.add("t", "me", 11); // relayed by this process for the others: its own clients had it live
        remote.watching("t", CLASSIC);
        remote.watching("t", CLASSIC);
        assertThat(table.watches).containsExactly(new Watch("t", CLASSIC, "me"));
        follow();
        table.batch("other", "t");
        table.add("t", "other", 12);
        remote.appended(table.batch("other", "t", "u"));
        assertThat(got).containsExactly(12L);

        remote.unwatched("t", CLASSIC);
        remote.unwatched("t", CLASSIC);
        remote.renew();
        assertThat(table.gone).containsExactly(new Watch("t", CLASSIC, "me"));
        assertThat(table.held).isEmpty();
        table.add("t", "other", 13);
        remote.appended(table.batch("other", "t"));
        assertThat(got).as("no longer read").containsExactly(12L);
    }

    @Test
    void whenTheTablesIdsStartAgainTheThreadIsReadFromItsFirstRow() {
        remote.watching("t", CLASSIC);
        table.add("t", "other", 10);
        table.add("t", "other", 11);
        remote.appended(table.batch("other", "t"));
        follow();
        table.rows.clear(); // a database crash empties the unlogged table and its sequence, and ends the wake-ups
        remote.resumed(); // they start again
        table.add("t", "other", 12);
        remote.appended(table.batch("other", "t"));
        assertThat(got).containsExactly(12L);
        table.add("t", "other", 13);
        remote.appended(table.batch("other", "t"));
        assertThat(got).as("and the process's rows are followed from its next batch").containsExactly(12L, 13L);
        remote.renew();
        assertThat(table.held).as("the watch is recorded again at each renewal").containsExactly(new Watch("t", CLASSIC, "me"));
    }

    @Test
    void aThreadWhoseRowsExpiredGoesOnFromItsProcesssNewRowsAsTheOthersDo() {
        remote.watching("t", CLASSIC);
        remote.watching("u", CLASSIC);
        table.add("t", "other", 5);
        table.add("u", "other", 5);
        remote.appended(table.batch("other", "t", "u"));
        follow("t", 0);
        follow("u", 0);
        table.add("u", "other", 6);
        table.rows.removeIf(f -> f.threadId().equals("t")); // past the retention
        remote.renew();
        table.add("t", "other", 7);
        table.add("u", "other", 8);
        remote.appended(table.batch("other", "t", "u"));
        assertThat(got).containsExactly(5L, 5L, 6L, 7L, 8L);
    }

    @Test
    void oneWakeUpNamingManyWatchedThreadsReadsTheirNewRowsInOneQuery() {
        for (String t : List.of("a", "b", "c")) {
            remote.watching(t, CLASSIC);
        }
        assertThat(table.reads).as("each thread is first read on its own").hasSize(3);
        table.add("a", "other", 5);
        table.add("b", "other", 6);
        table.add("c", "other", 4);
        remote.appended(table.batch("other", "a", "b", "c"));
        for (String t : List.of("a", "b", "c")) {
            follow(t, 0);
        }
        assertThat(got).as("the first batch of a process: its threads are read on their own first").containsExactlyInAnyOrder(4L, 5L, 6L);

        table.reads.clear();
        table.sinceReads = 0;
        table.add("a", "other", 7);
        table.add("unwatched", "other", 1);
        table.add("b", "other", 8);
        table.add("c", "other", 9);
        remote.appended(table.batch("other", "a", "b", "c", "unwatched"));
        assertThat(table.sinceReads).as("the process's new rows, in one read").isEqualTo(1);
        assertThat(table.reads).as("no read by thread").isEmpty();
        assertThat(got).containsExactlyInAnyOrder(4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void aWakeUpTooBigToNameItsThreadsIsReadForEveryWatchedThread() {
        remote.watching("a", CLASSIC);
        remote.watching("b", CLASSIC);
        table.add("a", "other", 5);
        table.add("b", "other", 6);
        remote.appended(table.unnamedBatch("other")); // the first of its process: each thread read on its own first
        follow("a", 0);
        follow("b", 0);
        table.add("a", "other", 7);
        table.add("unwatched", "other", 1);
        table.add("b", "other", 8);
        remote.appended(table.unnamedBatch("other"));
        assertThat(got).containsExactlyInAnyOrder(5L, 6L, 7L, 8L);
    }

    @Test
    void theRenewalTriesAgainAFailedReadOfAThreadAndReadsNoThreadAlreadyCaughtUp() {
        remote.watching("a", CLASSIC);
        table.failReads = true;
        remote.watching("b", CLASSIC); // its own read fails
        table.failReads = false;
        table.add("b", "other", 6);
        table.reads.clear();
        remote.renew();
        assertThat(table.reads).as("one read, of the thread whose read failed").containsExactly(1);
        follow("b", 0);
        assertThat(got).containsExactly(6L);

        table.reads.clear();
        remote.renew();
        assertThat(table.reads).as("nothing failed since: no read by thread").isEmpty();
    }

    @Test
    void aProcessSilentForTwoWatchLifetimesIsNoLongerReadAndIsFollowedAgainIfItWakes() {
        remote.watching("t", CLASSIC);
        table.add("t", "old", 5); // a replica since restarted: its process is gone
        remote.appended(table.batch("old", "t"));
        table.add("t", "other", 6);
        remote.appended(table.batch("other", "t"));
        follow("t", 0);
        now.addAndGet(45_000);
        table.add("t", "other", 7);
        remote.appended(table.batch("other", "t"));
        now.addAndGet(30_000); // "old" silent for 75 s, two watch lifetimes and more; "other" for 30 s
        remote.renew();
        assertThat(table.lastSince).as("the silent process is no longer read").containsOnlyKeys("other");

        table.add("t", "old", 8); // it was only quiet
        remote.appended(table.batch("old", "t"));
        assertThat(got).containsExactly(5L, 6L, 7L, 8L);
    }

    private void follow() {
        follow("t", 11);
    }

    private void follow(String thread, long afterSeq) {
        logs.log(CLASSIC, thread).subscribeRun("r", afterSeq, new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                got.add(event.seq());
            }

            @Override
            public void onEnd() {
            }
        });
    }

    /** The table, in a list; every call completes at once. */
    private static final class Table implements FrameExchange {
        final List<Frame> rows = new ArrayList<>();
        final List<Watch> watches = new ArrayList<>();
        final List<Watch> held = new ArrayList<>();
        final List<Watch> gone = new ArrayList<>();
        /** The threads each read by thread asked for. */
        final List<Integer> reads = new ArrayList<>();
        /** How many reads of the processes' new rows were made. */
        int sinceReads;
        /** What the last of those reads asked: per process, the last of its rows read. */
        Map<String, Long> lastSince = Map.of();
        /** Whether reads by thread fail (the database out of reach). */
        boolean failReads;
        private long nextId = 1;
        private int batched;

        void add(String thread, String origin, long seq) {
            if (rows.isEmpty()) {
                nextId = 1;
                batched = 0;
            }
            rows.add(new Frame(nextId++, thread, CLASSIC, origin, new RunEvent(seq, "r", "values", "", "{}"), null));
        }


        /** The wake-up of the rows added since the last one: as the process that stored them would send it. */
        Appended batch(String origin, String... threads) {
            List<Frame> added = rows.subList(Math.min(batched, rows.size()), rows.size());
            batched = rows.size();
            return new Appended(origin, added.getFirst().id(), added.getLast().id(), List.of(threads));
        }

        /** The same, from a process that stored too many threads to name them. */
        Appended unnamedBatch(String origin) {
            Appended named = batch(origin);
            return new Appended(origin, named.firstId(), named.lastId(), null);
        }

        @Override
        public Uni<List<Frame>> since(Map<String, Long> since, int limit) {
            sinceReads++;
            lastSince = since;
            return Uni.createFrom().item(rows.stream().filter(f -> since.containsKey(f.origin()) && f.id() > since.get(f.origin()))
                    .limit(limit).toList());
        }

        @Override
        public Uni<Void> append(List<Frame> frames) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Rows> after(List<Cursor> cursors, int limit) {
            reads.add(cursors.size());
            if (failReads) {
                return Uni.createFrom().failure(new IllegalStateException("the database is out of reach"));
            }
            List<Frame> frames = new ArrayList<>();
            Map<String, Long> newest = new HashMap<>();
            for (Cursor c : cursors) {
                rows.stream().filter(f -> f.threadId().equals(c.threadId()) && f.id() > c.afterId()).limit(limit).forEach(frames::add);
                newest.put(c.threadId(), rows.stream().filter(f -> f.threadId().equals(c.threadId())).mapToLong(Frame::id).max().orElse(0));
            }
            return Uni.createFrom().item(new Rows(frames, newest));
        }

        @Override
        public Uni<Void> watch(Watch watch, Duration ttl) {
            watches.add(watch);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> renew(List<Watch> held, List<Watch> gone, Duration ttl) {
            this.held.clear();
            this.held.addAll(held);
            this.gone.addAll(gone);
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<Watch>> watches() {
            return Uni.createFrom().item(watches);
        }

        @Override
        public Uni<Integer> expire(Duration retention) {
            return Uni.createFrom().item(0);
        }

        @Override
        public Uni<Void> claimed(String threadId, String runId, String origin) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public void onClaimed(Consumer<Claim> claim) {
        }

        @Override
        public void onResumed(Runnable resumed) {
        }

        @Override
        public void onAppended(Consumer<Appended> batch) {
        }

        @Override
        public void onWatch(Consumer<Watch> watch) {
        }
    }
}
