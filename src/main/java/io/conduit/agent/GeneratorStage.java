package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Streams the final answer, grounded in the tool results of the turn; no tools are bound. */
public final class GeneratorStage implements Node {

    private static final String GROUNDING = "\n\nAnswer the user's last message from the tool results above. "
            + "If they do not contain what is needed, say what is missing instead of guessing.";

    private final LanguageModel model;
    private final AgentConfig config;
    private final Clock clock;

    public GeneratorStage(LanguageModel model, AgentConfig config, Clock clock) {
        this.model = model;
        this.config = config;
        this.clock = clock;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        List<ChatMessage> messages = new ArrayList<>();
        AgentSettings settings = AgentSettings.of(config, ctx.configurable());
        messages.add(SystemPrompt.of(settings.systemPrompt() + GROUNDING, state, clock));
        messages.addAll(AgentState.modelView(state));
        String messageId = TimeOrderedIds.next();
        ModelRequest request = new ModelRequest(ModelRole.GENERATOR, messages, List.of()).withModel(settings.model());
        return StreamedModelCall.run(model, request, ctx, messageId, "generator", StreamedModelCall.Shown.ALL).map(reply -> {
            LlmCall call = LlmCall.of(TimeOrderedIds.next(), ctx.runId(), "generator", reply.response());
            return Update.of(AgentState.MESSAGES, reply.message())
                    .set(AgentState.LLM_CALLS, call).set(AgentState.USAGE, Usage.of(call))
                    .set(AgentState.PHASE, Phase.ANSWERED);
        });
    }
}
