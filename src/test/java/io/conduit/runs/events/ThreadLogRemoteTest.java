package io.conduit.runs.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.stream.ProtocolEventLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A thread's log holding runs other replicas execute, as relayed frames ({@link ThreadLog#appendRemote}). */
class ThreadLogRemoteTest {

    private static final String CLASSIC = RunEventLogs.NAME;
    private final List<String> told = new ArrayList<>();
    private ThreadLogs logs;

    @BeforeEach
    void logs() {
        logs = FrameLogs.of(Duration.ofMinutes(5), 1 << 20, 1 << 24);
        logs.link(new ClusterLink() {
            @Override
            public void watching(String threadId, String format) {
                told.add("watching " + threadId + " " + format);
            }

            @Override
            public void unwatched(String threadId, String format) {
                told.add("unwatched " + threadId + " " + format);
            }

            @Override
            public void began(String threadId) {
                told.add("began " + threadId);
            }

            @Override
            public void claimed(String threadId, String runId) {
                told.add("claimed " + runId);
            }

            @Override
            public void ended(String threadId, String runId) {
                told.add("ended " + runId);
            }
        });
    }

    @Test
    void aFollowerOfARunNotHeldHereWatchesGetsItsRelayedFramesAndEndsWithIt() {
        Recorder r = new Recorder();
        ThreadEventLog log = logs.log(CLASSIC, "t");
        log.followRun("r1", -1, r);
        assertThat(told).containsExactly("watching t " + CLASSIC);

        log.entries().appendRemote(CLASSIC, frame(10, "r1", "metadata"));
        log.entries().appendRemote(CLASSIC, frame(11, "r1", "values"));
        log.entries().appendRemote(CLASSIC, frame(11, "r1", "values")); // a relay's replay repeats it
        log.entries().appendRemote(ProtocolEventLogs.NAME, frame(10, "r1", "lifecycle")); // another format
        log.entries().endRemote("r1", 0);

        assertThat(r.seqs).containsExactly(10L, 11L);
        assertThat(r.ended).isTrue();
        assertThat(told).containsExactly("watching t " + CLASSIC, "unwatched t " + CLASSIC);
    }

    @Test
    void aClientReconnectingWithItsLastIdGetsOnlyTheRelayedFramesAfterIt() {
        // a replica that never watched the thread: the owner's relay replays the run from its start
        Recorder run = new Recorder();
        Recorder thread = new Recorder();
        logs.log(CLASSIC, "t").followRun("r1", 11, run);
        logs.log(CLASSIC, "t").subscribeThread(11L, thread);
        for (long seq = 10; seq <= 13; seq++) {
            logs.log("t").appendRemote(CLASSIC, frame(seq, "r1", "values"));
        }
        assertThat(run.seqs).containsExactly(12L, 13L);
        assertThat(thread.seqs).containsExactly(12L, 13L);
    }

    @Test
    void aLateSubscriberReplaysTheRelayedFramesAfterItsSeqThenFollows() {
        ThreadLog entries = logs.log("t");
        entries.appendRemote(CLASSIC, frame(10, "r1", "metadata"));
        entries.appendRemote(CLASSIC, frame(11, "r1", "values"));
        Recorder r = new Recorder();
        assertThat(logs.log(CLASSIC, "t").subscribeRun("r1", 10, r)).isNotNull();
        entries.appendRemote(CLASSIC, frame(12, "r1", "end"));
        assertThat(r.seqs).containsExactly(11L, 12L);
        assertThat(r.replayed).isEqualTo(1);
        entries.endRemote("r1", System.currentTimeMillis());
        assertThat(r.ended).isTrue();

        Recorder after = new Recorder();
        logs.log(CLASSIC, "t").subscribeRun("r1", -1, after);
        assertThat(after.seqs).as("an ended relayed run replays whole, then ends").containsExactly(10L, 11L, 12L);
        assertThat(after.ended).isTrue();
    }

    @Test
    void framesOfARunExecutedHereAreNotTakenFromOtherReplicas() {
        ThreadLog entries = FrameLogs.begin(logs, "t", "r1");
        Recorder r = new Recorder();
        logs.log(CLASSIC, "t").subscribeRun("r1", -1, r);
        entries.appendRemote(CLASSIC, frame(10, "r1", "metadata"));
        entries.append("r1", frame(10, "r1", "metadata"));
        assertThat(r.seqs).containsExactly(10L);
        assertThat(told).as("no watch for a run held here").noneMatch(t -> t.startsWith("watching"));
    }

    @Test
    void aRelayGetsTheRunsExecutedHereOnlyAndWatchesNothing() {
        ThreadLog entries = FrameLogs.begin(logs, "t", "r1");
        Recorder relay = new Recorder();
        logs.log(CLASSIC, "t").relayThread(-1, relay);
        entries.append("r1", frame(10, "r1", "metadata"));
        entries.appendRemote(CLASSIC, frame(20, "r2", "metadata"));
        assertThat(relay.seqs).containsExactly(10L);
        assertThat(told).noneMatch(t -> t.startsWith("watching"));

        Recorder client = new Recorder();
        ThreadEventLog.Subscription s = logs.log(CLASSIC, "t").subscribeThread(-1L, client);
        assertThat(client.seqs).as("a client's replay has both").containsExactly(10L, 20L);
        s.cancel();
        assertThat(told).containsSubsequence("watching t " + CLASSIC, "unwatched t " + CLASSIC);
    }

    @Test
    void aRunCreatedHereAndClaimedElsewhereIsFollowedFromTheRelay() {
        logs.begin("t", "r1"); // created here: its segment waits for the worker
        Recorder r = new Recorder();
        ThreadLog entries = logs.log("t");
        logs.log(CLASSIC, "t").subscribeRun("r1", -1, r);
        assertThat(told).noneMatch(t -> t.startsWith("watching"));

        entries.executedElsewhere("r1");
        assertThat(told).contains("watching t " + CLASSIC);
        assertThat(logs.openRuns()).isZero();
        entries.appendRemote(CLASSIC, frame(10, "r1", "metadata"));
        entries.endRemote("r1", 0);
        assertThat(r.seqs).containsExactly(10L);
        assertThat(r.ended).isTrue();
    }

    /**
     * The claim's notice can come before the request that created the run subscribes to it (between the run's record
     * and the door's subscription): the door still follows it, from the relay, instead of finding no run to follow
     * (AG-UI then said RUN_ERROR run_stopped, a chat completion an error, of a run going on elsewhere).
     */
    @Test
    void aRunClaimedElsewhereBeforeItsRequestSubscribedIsFollowedFromTheRelay() {
        logs.begin("t", "r1");
        ThreadLog entries = logs.log("t");
        entries.executedElsewhere("r1");
        Recorder r = new Recorder();
        assertThat(logs.log(CLASSIC, "t").subscribeRun("r1", -1, r)).as("the run is followed").isNotNull();
        assertThat(told).contains("watching t " + CLASSIC);
        entries.appendRemote(CLASSIC, frame(10, "r1", "metadata"));
        entries.appendRemote(CLASSIC, frame(11, "r1", "values"));
        entries.endRemote("r1", 0);
        assertThat(r.seqs).containsExactly(10L, 11L);
        assertThat(r.ended).isTrue();
        assertThat(logs.openRuns()).isZero();
    }

    @Test
    void framesOfARunCreatedHereThatComeBeforeTheNoticeOfItsClaimElsewhereAreKept() {
        logs.begin("t", "r1");
        Recorder r = new Recorder();
        logs.log(CLASSIC, "t").subscribeRun("r1", -1, r);
        ThreadLog entries = logs.log("t");
        entries.appendRemote(CLASSIC, frame(10, "r1", "metadata")); // the relay was quicker than the claim's notice
        entries.executedElsewhere("r1");
        entries.appendRemote(CLASSIC, frame(11, "r1", "values"));
        entries.endRemote("r1", 0);
        assertThat(r.seqs).containsExactly(10L, 11L);
        assertThat(r.ended).isTrue();
    }

    /**
     * A run executed here whose worker was paused past its lease: another replica resumed it. Its clients here, of the
     * run and of the thread, follow the rest of it from that replica's relay, and the first life's segment goes.
     */
    @Test
    void aRunThatMovedAwayIsFollowedFromTheRelayOfItsNewHolder() {
        ThreadLog entries = FrameLogs.begin(logs, "t", "r1");
        Recorder run = new Recorder();
        Recorder thread = new Recorder();
        logs.log(CLASSIC, "t").subscribeRun("r1", -1, run);
        logs.log(CLASSIC, "t").subscribeThread(null, thread);
        entries.append("r1", frame(10, "r1", "metadata"));
        told.clear();

        entries.movedAway("r1");
        assertThat(told).as("the run's client now watches; the thread's watched already").containsExactly("watching t " + CLASSIC);
        assertThat(logs.openRuns()).isZero();
        assertThat(logs.bytes()).as("the first life's segment went").isZero();
        entries.appendRemote(CLASSIC, frame(20, "r1", "metadata")); // the new holder's life, numbered from its own block
        entries.appendRemote(CLASSIC, frame(21, "r1", "values"));
        entries.endRemote("r1", 0);
        assertThat(run.seqs).containsExactly(10L, 20L, 21L);
        assertThat(run.ended).isTrue();
        assertThat(thread.seqs).containsExactly(10L, 20L, 21L);
    }

    /** Its new holder's end may never come (it died, or its last write was lost): the run's record ends it then. */
    @Test
    void aRunThatMovedAwayIsOpenUntilItsEndComesFromItsNewHolderOrItsRecord() {
        ThreadLog entries = FrameLogs.begin(logs, "t", "r1");
        entries.append("r1", frame(10, "r1", "metadata"));
        entries.movedAway("r1");
        assertThat(entries.openRemoteRuns()).as("for RelayedRunEnds to look up").containsExactly("r1");
        Recorder late = new Recorder();
        assertThat(logs.log(CLASSIC, "t").subscribeRun("r1", -1, late)).as("a join now follows it from the relay").isNotNull();
        entries.endRemote("r1", 0);
        assertThat(late.ended).isTrue();
    }

    /** A run relayed here, taken over here, then taken from here in turn: its first life's end does not end the third. */
    @Test
    void aRunTakenOverHereAndThenMovedAwayFollowsItsThirdLife() {
        ThreadLog entries = logs.log("t");
        entries.appendRemote(CLASSIC, frame(10, "r1", "metadata")); // first life, elsewhere
        ThreadLog log = logs.start("t", "r1"); // its owner died: taken over here
        log.append("r1", new RunNotice.Began(20, null, "g", java.util.Set.of(), true));
        Recorder run = new Recorder();
        logs.log(CLASSIC, "t").subscribeRun("r1", 10, run);
        log.movedAway("r1"); // this process was paused past its lease: a third process resumed it
        entries.appendRemote(CLASSIC, frame(30, "r1", "metadata"));
        entries.endRemote("r1", 0);
        assertThat(run.seqs).containsExactly(30L);
        assertThat(run.ended).isTrue();
    }

    /**
     * The log keeps the segment it appended to last (a token's path): a late event of a life that moved away lands
     * nowhere, and the run taken back here appends to its new segment, not to the one it left.
     */
    @Test
    void aRunTakenBackAfterMovingAwayAppendsToItsNewSegment() {
        ThreadLog entries = FrameLogs.begin(logs, "t", "r1");
        entries.append("r1", frame(10, "r1", "metadata"));
        entries.movedAway("r1");
        entries.append("r1", frame(11, "r1", "values")); // a late event of the life that moved away
        assertThat(logs.bytes()).as("the late event is not held").isZero();

        ThreadLog back = FrameLogs.begin(logs, "t", "r1"); // its holder died: taken back here
        Recorder run = new Recorder();
        logs.log(CLASSIC, "t").subscribeRun("r1", -1, run);
        back.append("r1", frame(20, "r1", "metadata"));
        back.append("r1", frame(21, "r1", "values"));
        assertThat(run.seqs).containsExactly(20L, 21L);
        assertThat(logs.bytes()).isPositive();
    }

    @Test
    void aRelayedRunTakenOverHereExpiresWithItsEnd() {
        logs.log("t").appendRemote(CLASSIC, frame(10, "r1", "metadata")); // its owner died before its end
        ThreadLog log = logs.start("t", "r1");
        log.append("r1", new RunNotice.Began(20, null, "g", java.util.Set.of(), true));
        log.end("r1", System.currentTimeMillis());
        logs.sweep(System.currentTimeMillis() + Duration.ofMinutes(6).toMillis());
        assertThat(logs.find("t")).as("nothing of the thread is kept past retention").isNull();
    }

    @Test
    void relayedFramesCountAgainstTheLogsMemoryUntilTheyExpire() {
        ThreadLog entries = logs.log("t");
        entries.appendRemote(CLASSIC, frame(10, "r1", "values"));
        assertThat(logs.bytes()).isPositive();
        entries.endRemote("r1", System.currentTimeMillis());
        logs.sweep(System.currentTimeMillis() + Duration.ofMinutes(6).toMillis());
        assertThat(logs.bytes()).isZero();
    }

    @Test
    void aWorkerStartingARunItDidNotCreateTellsTheCluster() {
        logs.begin("t", "here");
        logs.start("t", "here");
        logs.start("t", "elsewhere");
        assertThat(told).filteredOn(t -> t.startsWith("claimed")).containsExactly("claimed elsewhere");
    }

    private static RunEvent frame(long seq, String runId, String mode) {
        return new RunEvent(seq, runId, mode, "", "{\"seq\":" + seq + "}");
    }

    private static final class Recorder implements RunEventListener {
        final List<Long> seqs = new ArrayList<>();
        int replayed;
        boolean ended;

        @Override
        public void onEvent(RunEvent event) {
            seqs.add(event.seq());
        }

        @Override
        public void onReplay(RunEvent event) {
            replayed++;
            onEvent(event);
        }

        @Override
        public void onEnd() {
            ended = true;
        }
    }
}
