package io.conduit.graph;

import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.InMemoryCheckpointer;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A node with a timeout: past it, its work is cancelled and the run fails with NODE_TIMEOUT; in time, nothing changes. */
class TimedNodeTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");

    CompletableFuture<Void> cancelled = new CompletableFuture<>();

    CompiledGraph graph(boolean hang) {
        return StateGraph.of(StateSchema.of(NOTE))
                .node("slow", (s, ctx) -> hang
                        ? Uni.createFrom().<Update>nothing().onCancellation().invoke(() -> cancelled.complete(null))
                        : Uni.createFrom().item(Update.of(NOTE, "done")),
                        ctx -> ctx.configurable().get("timeout_ms") instanceof Number n ? Duration.ofMillis(n.longValue()) : null)
                .edge(START, "slow").edge("slow", END)
                .compile(GraphOptions.with(new InMemoryCheckpointer()));
    }

    @Test
    void aNodePastItsTimeoutFailsTheRunAndIsCancelled() {
        CompiledGraph g = graph(true);
        RunResult r = g.invoke(RunRequest.on("t1").input(Update.of(NOTE, "start")).configurable(Map.of("timeout_ms", 30))).await().atMost(Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(RunResult.Status.FAILED);
        assertThat(r.errorCode()).isEqualTo("node_timeout");
        assertThat(r.error()).isEqualTo("node slow took longer than its timeout of 30 ms");
        assertThat(cancelled).isDone();
    }

    @Test
    void aNodeInTimeOrWithoutALimitRunsAsAnyOther() {
        CompiledGraph g = graph(false);
        assertThat(g.invoke(RunRequest.on("t2").input(Update.of(NOTE, "start")).configurable(Map.of("timeout_ms", 5_000))).await().indefinitely().state().get(NOTE)).isEqualTo("done");
        assertThat(g.invoke(RunRequest.on("t3").input(Update.of(NOTE, "start"))).await().indefinitely().state().get(NOTE)).isEqualTo("done");
    }

    @Test
    void limitsAreWrittenForPeople() {
        assertThat(TimedNode.human(Duration.ofSeconds(60))).isEqualTo("60 s");
        assertThat(TimedNode.human(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    }
}
