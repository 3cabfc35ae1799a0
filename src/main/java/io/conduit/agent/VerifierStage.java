package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.MessageList;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Looks at the results of the last tool calls. Empty or failed ones send the turn back to the planner with a note,
 * while the retry budget lasts (a {@code planning_retry} event says so). Then the generator answers with what there
 * is, or, if configured, the run pauses to ask the user to clarify.
 */
public final class VerifierStage implements Node {

    private final AgentConfig config;

    public VerifierStage(AgentConfig config) {
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        AgentSettings settings = AgentSettings.of(config, ctx.configurable());
        List<String> failed = new ArrayList<>();
        for (ToolMessage m : lastResults(state.get(AgentState.MESSAGES))) {
            if (m.error()) {
                failed.add(m.name() + " failed: " + m.content());
            } else if (m.content() == null || m.content().isBlank()) {
                failed.add(m.name() + " returned nothing");
            }
        }
        if (failed.isEmpty()) {
            return Uni.createFrom().item(Update.of(AgentState.PHASE, Phase.GENERATE));
        }
        int retries = state.get(AgentState.RETRY_COUNT);
        if (retries < settings.retryBudget()) {
            String note = String.join("; ", failed) + ". Try other tools or arguments, or answer with what you know.";
            ctx.custom("planning_retry", Map.of("attempt", retries + 1, "budget", settings.retryBudget(), "problems", failed));
            return Uni.createFrom().item(Update.of(AgentState.RETRY_COUNT, retries + 1)
                    .set(AgentState.SCRATCHPAD, state.get(AgentState.SCRATCHPAD).with("replan", note))
                    .set(AgentState.PHASE, Phase.REPLAN));
        }
        if (settings.clarifyOnFailure()) {
            String answer = ClarifyingQuestion.answer(ctx.interrupt(ClarifyingQuestion.payload("I could not find what I needed ("
                    + String.join("; ", failed) + "). Can you tell me more?", failed), Object.class));
            if (answer.isEmpty()) {
                // nothing to add: answer with what there is rather than asking again
                return Uni.createFrom().item(Update.of(AgentState.RETRY_COUNT, 0).set(AgentState.PHASE, Phase.GENERATE));
            }
            return Uni.createFrom().item(Update.of(AgentState.MESSAGES, UserMessage.of(answer))
                    .set(AgentState.RETRY_COUNT, 0)
                    .set(AgentState.SCRATCHPAD, state.get(AgentState.SCRATCHPAD).with("replan", "The user clarified: " + answer))
                    .set(AgentState.PHASE, Phase.REPLAN));
        }
        return Uni.createFrom().item(Update.of(AgentState.PHASE, Phase.GENERATE));
    }

    /** The tool messages that answer the newest assistant message with tool calls. */
    static List<ToolMessage> lastResults(MessageList<ChatMessage> messages) {
        List<ToolMessage> out = new ArrayList<>();
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage m = messages.get(i);
            if (m instanceof ToolMessage t) {
                out.add(0, t);
            } else if (m instanceof AssistantMessage a && a.hasToolCalls()) {
                break;
            }
        }
        return out;
    }

    /** After the verifier: plan again, or answer. */
    public static Route route(State state) {
        return Route.to(state.get(AgentState.PHASE) == Phase.REPLAN ? "planner" : "generator");
    }
}
