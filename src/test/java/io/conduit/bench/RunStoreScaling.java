package io.conduit.bench;

import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpecJson;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.memory.InMemoryRunStore;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * What the memory run store costs per run as its history grows: one serving cycle is what the API does for
 * "create a thread, stream a run" (create with the default strategy, claim, mark success, look for the thread's
 * runs in flight, as {@code RunExecutor} does to settle the thread), timed after 0, 5k, 20k and 50k finished
 * runs are already stored.
 *
 * <pre>./mvnw -B -Pbench test-compile exec:java -Dbench.main=io.conduit.bench.RunStoreScaling</pre>
 */
public final class RunStoreScaling {

    private RunStoreScaling() {
    }

    public static void main(String[] args) {
        int cycles = Integer.getInteger("bench.cycles", 1_000);
        for (int history : new int[] {0, 5_000, 20_000, 50_000}) {
            RunStore store = new InMemoryRunStore();
            for (int i = 0; i < history; i++) {
                cycle(store);
            }
            for (int i = 0; i < cycles; i++) { // warm-up at this size
                cycle(store);
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < cycles; i++) {
                cycle(store);
            }
            double us = (System.nanoTime() - t0) / 1_000.0 / cycles;
            System.out.printf("memory run store, %,d finished runs stored: %.1f µs per run (create, claim, success, inflight)%n",
                    history, us);
        }
    }

    private static void cycle(RunStore store) {
        Instant now = Instant.now();
        String thread = UUID.randomUUID().toString();
        Run run = new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, Map.of(), MultitaskStrategy.ENQUEUE,
                RunSpecJson.fromKwargs(Map.of("stream_mode", "messages")), now, now, now, null);
        store.create(run).await().indefinitely();
        Run claimed = store.claimNext("w", now).await().indefinitely().orElseThrow();
        store.finish(claimed.runId(), "w", RunStatus.SUCCESS, now).await().indefinitely();
        store.inflight(thread).await().indefinitely();
    }
}
