package io.conduit.runs.graphs;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A graph given as a supplier is built at its first use, once, and listing the registry does not build it. */
class RegisteredGraphTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");

    final AtomicInteger builds = new AtomicInteger();

    CompiledGraph build() {
        builds.incrementAndGet();
        return StateGraph.of(StateSchema.of(NOTE))
                .node("write", (s, ctx) -> Uni.createFrom().item(Update.of(NOTE, "written")))
                .edge(StateGraph.START, "write").edge("write", StateGraph.END)
                .compile(GraphOptions.with(new InMemoryCheckpointer()));
    }

    @Test
    void aSuppliedGraphIsBuiltAtItsFirstUseOnly() {
        RegisteredGraph lazy = new RegisteredGraph("lazy", "built on use", this::build, u -> { }, Map.of(), c -> null);
        GraphRegistry registry = new GraphRegistry(List.of(lazy));
        assertThat(registry.all()).extracting(RegisteredGraph::graphId).containsExactly("lazy");
        assertThat(builds).hasValue(0);

        CompiledGraph first = lazy.graph();
        assertThat(lazy.graph()).isSameAs(first);
        assertThat(builds).hasValue(1);
    }

    @Test
    void aGivenGraphIsServedAsItIs() {
        CompiledGraph graph = build();
        assertThat(new RegisteredGraph("eager", "", graph, u -> { }, Map.of(), c -> null).graph()).isSameAs(graph);
    }
}
