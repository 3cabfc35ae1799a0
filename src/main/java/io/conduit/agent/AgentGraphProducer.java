package io.conduit.agent;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.UserMemory;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.CompiledGraph;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The service's assistant graph, from the configured model, tools, memory and checkpoint store. */
@ApplicationScoped
public class AgentGraphProducer {

    @Produces
    @Singleton
    CompiledGraph agent(AgentConfig config, LanguageModel model, ToolBox tools, UserMemory memory,
                        Instance<IngressStage.ModerationHook> moderation, Checkpointer store) {
        return AgentGraph.compile(config, model, tools, memory, moderation.isResolvable() ? moderation.get() : null,
                Clock.systemDefaultZone(), store);
    }
}
