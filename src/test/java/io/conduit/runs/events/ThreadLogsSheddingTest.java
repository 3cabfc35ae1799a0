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
        assertThat(replay(bounded, "ended-thread", "ended")).as("the ended run, shed").isNotEqualTo(ended);
        assertThat(bounded.bytes()).isLessThan(unbounded.bytes());
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
