package io.conduit.runs.graphs;

import io.conduit.agent.AgentConfig;
import io.conduit.agent.AgentSettings;
import io.conduit.agent.AgentState;
import io.conduit.agent.MessageRules;
import io.conduit.graph.CompiledGraph;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.ThreadStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Comparator;
import java.util.Set;

/** The graphs the service runs, made once: the default assistant's, the registry of every graph bean, the assistants. */
@ApplicationScoped
public class GraphBeans {

    /** The graph id of the default assistant. */
    public static final String AGENT = "agent";

    /** The default assistant's graph. Every {@link RegisteredGraph} bean is served, so a blueprint adds its own producer. */
    @Produces
    @Singleton
    RegisteredGraph agentGraph(CompiledGraph agent, AgentConfig config) {
        // the input rules are checked before a run is created (ingress applies them again inside the run)
        return new RegisteredGraph(AGENT,
                "The default assistant: ingress, planner, tools, verifier, generator, summarizer", agent,
                new ChatInput(MessageRules.of(config), config.maxMessageChars(), Set.of(AgentState.MESSAGES.name(), AgentState.USER_ID.name())),
                AgentSettings.SCHEMA, AgentSettings::check);
    }

    /** Every graph bean, the default assistant first, the others by graph id (a stable order for listings). */
    @Produces
    @Singleton
    GraphRegistry graphs(Instance<RegisteredGraph> graphs) {
        return new GraphRegistry(graphs.stream()
                .sorted(Comparator.comparing((RegisteredGraph g) -> !AGENT.equals(g.graphId())).thenComparing(RegisteredGraph::graphId))
                .toList());
    }

    @Produces
    @Singleton
    ThreadGraphs threadGraphs(ThreadStore threads, GraphRegistry graphs) {
        return new ThreadGraphs(threads, graphs);
    }

    @Produces
    @Singleton
    Assistants assistants(GraphRegistry graphs, AssistantStore store) {
        return new Assistants(graphs, store);
    }
}
