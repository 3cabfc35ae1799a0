package io.conduit.runs.submission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStoreContractTest;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Deleting a thread takes everything it owns; the TTL sweep deletes expired threads that are not busy. */
class ThreadDeletionTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");
    final InMemoryThreadStore threads = new InMemoryThreadStore();
    final InMemoryRunStore runs = new InMemoryRunStore();
    final ThreadLogs logs = ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), 1 << 20, 1 << 24);
    final CompiledGraph graph = StateGraph.of(StateSchema.of(NOTE))
            .node("write", (s, ctx) -> Uni.createFrom().item(Update.of(NOTE, "written")))
            .edge(StateGraph.START, "write").edge("write", StateGraph.END)
            .compile(GraphOptions.with(new InMemoryCheckpointer()));
    final Instant now = Instant.parse("2026-11-23T12:00:00Z");

    ThreadDeletion deletion(Instant at) {
        return new ThreadDeletion(threads, runs, logs, new GraphRegistry(List.of(new RegisteredGraph("g", "", graph, u -> { }, Map.of(), c -> null))),
                Clock.fixed(at, ZoneOffset.UTC));
    }

    @Test
    void deleteTakesCheckpointsRunsRecordAndLog() {
        threads.create("t", Map.of(), null, false, now).await().indefinitely();
        graph.invoke(RunRequest.on("t").input(Update.of(NOTE, "hi"))).await().indefinitely();
        Run done = runs.create(RunStoreContractTest.run("t", 0, MultitaskStrategy.ENQUEUE)).await().indefinitely();
        runs.claimNext("w", Instant.now().plusSeconds(60)).await().indefinitely(); // claimable: created at the contract test's T0
        runs.finish(done.runId(), "w", RunStatus.SUCCESS, now).await().indefinitely();
        logs.begin("t", done.runId());

        assertThat(deletion(now).delete("t").await().indefinitely()).isTrue();
        assertThat(threads.get("t").await().indefinitely()).isEmpty();
        assertThat(graph.state("t").await().indefinitely()).isEmpty();
        assertThat(runs.get(done.runId()).await().indefinitely()).isEmpty();
        assertThat(logs.find("t")).isNull();
        assertThat(deletion(now).delete("t").await().indefinitely()).isFalse();
    }

    @Test
    void aBusyThreadIsNotDeleted() {
        threads.create("busy", Map.of(), null, false, now).await().indefinitely();
        runs.create(RunStoreContractTest.run("busy", 0, MultitaskStrategy.ENQUEUE)).await().indefinitely();
        assertThatThrownBy(() -> deletion(now).delete("busy").await().indefinitely()).isInstanceOf(ThreadBusyException.class);
        assertThat(threads.get("busy").await().indefinitely()).isPresent();
    }

    @Test
    void theSweepDeletesExpiredIdleThreadsOnly() {
        threads.create("old", Map.of(), now.plusSeconds(60), false, now).await().indefinitely();
        threads.create("young", Map.of(), now.plusSeconds(3600), false, now).await().indefinitely();
        threads.create("forever", Map.of(), null, false, now).await().indefinitely();
        threads.create("old-busy", Map.of(), now.plusSeconds(60), false, now).await().indefinitely();
        runs.create(RunStoreContractTest.run("old-busy", 0, MultitaskStrategy.ENQUEUE)).await().indefinitely();

        assertThat(deletion(now.plusSeconds(120)).sweep(100).await().indefinitely()).isEqualTo(1);
        assertThat(threads.get("old").await().indefinitely()).isEmpty();
        assertThat(threads.get("young").await().indefinitely()).isPresent();
        assertThat(threads.get("forever").await().indefinitely()).isPresent();
        assertThat(threads.get("old-busy").await().indefinitely()).isPresent();
    }
}
