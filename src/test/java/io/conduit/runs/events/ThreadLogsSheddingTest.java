package io.conduit.runs.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The total bound on the logs: past it, the sweep sheds the runs that ended before it touches a run in flight. */
class ThreadLogsSheddingTest {

    private static final long NOW = 1_000_000L;

    @Test
    void overTheBoundTheEndedRunsGoFirstAndARunInFlightStaysWholeForItsReplay() {
        ThreadLogs unbounded = logs(1 << 24);
        fill(unbounded);
        List<String> live = replay(unbounded, "live-thread", "live");
        List<String> ended = replay(unbounded, "ended-thread", "ended");

        ThreadLogs bounded = logs(unbounded.bytes() - 1); // the same runs, one byte over
        fill(bounded);
        bounded.sweep(NOW);

        assertThat(replay(bounded, "live-thread", "live")).as("the run in flight, replayed whole").isEqualTo(live);
        assertThat(ended).hasSizeGreaterThan(100);
        assertThat(replay(bounded, "ended-thread", "ended")).as("the ended run, shed before anyone read it: the notice alone")
                .singleElement().asString().startsWith("1 error ").contains("EventsDropped");
        assertThat(bounded.bytes()).isLessThan(unbounded.bytes());
    }

    @Test
    void aRunRelayedFromAnotherReplicaThatEndedIsShedBeforeARunInFlightAndItsReplaySaysSo() {
        ThreadLogs unbounded = logs(1 << 24);
        fillWithRelayed(unbounded);
        List<String> live = replay(unbounded, "live-thread", "live");
        assertThat(replay(unbounded, "relayed-thread", "relayed")).hasSize(201);

        ThreadLogs bounded = logs(unbounded.bytes() - 1);
        fillWithRelayed(bounded);
        bounded.sweep(NOW);

        assertThat(replay(bounded, "live-thread", "live")).as("the run in flight, replayed whole").isEqualTo(live);
        List<String> relayed = replay(bounded, "relayed-thread", "relayed");
        assertThat(relayed.getFirst()).as("what was dropped, said first").startsWith("200 error ").contains("EventsDropped");
        assertThat(relayed).as("then what a replay must give: the end").hasSize(2).last().asString().startsWith("201 end ");
    }

    /** An ended run another replica executed (200 tokens and its end, as relayed), and a run in flight here. */
    private static void fillWithRelayed(ThreadLogs logs) {
        ThreadLog relayed = logs.log("relayed-thread");
        for (int seq = 1; seq <= 200; seq++) {
            relayed.appendRemote(RunEventLogs.NAME, new RunEvent(seq, "relayed", "messages", "", "[{\"content\":\"word" + seq + "\"}]"));
        }
        relayed.appendRemote(RunEventLogs.NAME, new RunEvent(201, "relayed", "end", "", "null"));
        relayed.endRemote("relayed", NOW);
        run(logs, "live-thread", "live", 300, false);
    }

    private static ThreadLogs logs(long maxTotalBytes) {
        return ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 1 << 20, maxTotalBytes, () -> NOW);
    }

    private static void fill(ThreadLogs logs) {
        run(logs, "ended-thread", "ended", 100, true);
        run(logs, "live-thread", "live", 300, false); // the larger log, which the sweep looks at first
    }

    private static void run(ThreadLogs logs, String threadId, String runId, int tokens, boolean end) {
        ThreadLog log = logs.begin(threadId, runId);
        Run run = new Run(runId, threadId, "a", RunStatus.RUNNING, Map.of(), MultitaskStrategy.ENQUEUE, RunSpec.NONE,
                Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, null);
        log.append(runId, new RunNotice.Began(1, run, "agent", Set.of(), true));
        GraphEvent.Tag tag = new GraphEvent.Tag(runId, threadId, "", "generator", 3, "task-" + runId);
        for (int i = 0; i < tokens; i++) {
            log.append(runId, new GraphEvent.Token(tag, "message-" + runId, "word" + i + " "));
        }
        if (end) {
            log.append(runId, new RunNotice.Ended(RunStatus.SUCCESS, null, true));
            log.end(runId, NOW);
        }
    }

    private static List<String> replay(ThreadLogs in, String threadId, String runId) {
        List<String> frames = new ArrayList<>();
        ThreadEventLog.Subscription s = in.log(RunEventLogs.NAME, threadId).subscribeRun(runId, -1, new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                frames.add(event.seq() + " " + event.mode() + " " + event.data());
            }

            @Override
            public void onEnd() {
            }
        });
        s.cancel();
        return frames;
    }
}
