package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.RunRequest;
import io.conduit.graph.RunResult;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PostgresSmokeTest {

    @Test
    void runsAGraphOnPostgresAndReadsItBackCold() {
        LastValueChannel<Integer> n = Channels.lastValue("n", Integer.class, 0);
        StateGraph g = StateGraph.of(StateSchema.of(n))
                .node("inc", (s, ctx) -> Uni.createFrom().item(Update.of(n, s.get(n) + 1)))
                .edge(StateGraph.START, "inc")
                .route("inc", s -> s.get(n) < 5 ? io.conduit.graph.Route.to("inc") : io.conduit.graph.Route.to(StateGraph.END), "inc", StateGraph.END);
        CompiledGraph graph = g.compile(GraphOptions.with(TestDatabase.checkpointer()));
        String thread = "smoke-" + UUID.randomUUID();
        RunResult r = graph.invoke(RunRequest.on(thread).input(Update.of(n, 0))).await().atMost(Duration.ofSeconds(10));
        assertThat(r.error()).isNull();
        assertThat(r.state().get(n)).isEqualTo(5);
        CompiledGraph cold = g.compile(GraphOptions.with(TestDatabase.checkpointer()));
        assertThat(cold.state(thread).await().atMost(Duration.ofSeconds(10)).orElseThrow().values().get(n)).isEqualTo(5);
        assertThat(cold.history(thread, 100, null).await().atMost(Duration.ofSeconds(10))).hasSize(6);
    }
}
