package io.conduit.runs.events;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunStatus;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * What a token costs the thread's log beyond its text (docs/benchmarks.md): 2,000 runs of 300 tokens (the streaming
 * benchmark's answer), each token a fresh 5-character String as a model client makes it, appended as the worker
 * appends them, with nobody reading (the log keeps the entries; no format is translated). Heap after a full GC, before
 * and after, divided by the tokens, less the text's own bytes (5 Latin-1 bytes a token).
 * Run: java -cp target/test-classes:target/classes:$(cat target/bench-classpath.txt) io.conduit.runs.events.LogMemory
 */
public final class LogMemory {

    public static void main(String[] args) {
        int runs = Integer.getInteger("bench.runs", 2_000);
        int tokens = Integer.getInteger("bench.tokens", 300);
        long before = usedAfterGc();
        ThreadLogs logs = ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 1L << 30, 1L << 40);
        for (int r = 0; r < runs; r++) {
            String runId = "run-" + r;
            String threadId = "thread-" + r;
            ThreadLog log = logs.begin(threadId, runId);
            Run run = new Run(runId, threadId, "a", RunStatus.RUNNING, Map.of(), MultitaskStrategy.ENQUEUE, RunSpec.NONE, Instant.EPOCH,
                    Instant.EPOCH, Instant.EPOCH, null);
            log.append(runId, new RunNotice.Began(1, run, "agent", Set.of(), true));
            GraphEvent.Tag tag = new GraphEvent.Tag(runId, threadId, "", "generator", 3, "task-" + r);
            String messageId = "message-" + r;
            for (int i = 0; i < tokens; i++) {
                log.append(runId, new GraphEvent.Token(tag, messageId, String.format("w%04d", i % 10_000)));
            }
            log.append(runId, new RunNotice.Ended(RunStatus.SUCCESS, null, true));
            log.end(runId, System.currentTimeMillis());
        }
        long after = usedAfterGc();
        double perToken = (double) (after - before) / ((long) runs * tokens);
        System.out.printf("%,d runs x %,d tokens: %,d bytes of heap, %.1f bytes a token, %.1f beyond its 5 bytes of text (%d runs open)%n",
                runs, tokens, after - before, perToken, perToken - 5, logs.openRuns());
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
