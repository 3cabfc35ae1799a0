package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keeps the context a model sees within budget: past {@code context-token-budget}, folds the oldest turns (all but
 * the last {@code keep-recent-turns}) into the running summary with one model call (the summarizer model, which may
 * be a cheaper one). It runs after the answer has streamed, so it never delays it. Messages stay in the checkpoint:
 * only {@code summarized_through} moves, which changes what models see, not the record.
 */
public final class SummarizerStage implements Node {

    private static final String INSTRUCTIONS = "You summarize conversations for an assistant that will continue them. "
            + "Write a concise summary of the conversation below: facts about the user, decisions, results of tools, "
            + "open questions. Merge it with the previous summary if there is one.";

    private final LanguageModel model;
    private final AgentConfig config;

    public SummarizerStage(LanguageModel model, AgentConfig config) {
        this.model = model;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        List<ChatMessage> view = AgentState.modelView(state);
        String summary = state.get(AgentState.SUMMARY);
        if (TokenEstimate.of(view) + TokenEstimate.of(summary) <= config.contextTokenBudget()) {
            return Uni.createFrom().item(Update.of(AgentState.PHASE, Phase.DONE));
        }
        int cut = foldEnd(view, config.keepRecentTurns());
        if (cut <= 0) {
            return Uni.createFrom().item(Update.of(AgentState.PHASE, Phase.DONE));
        }
        List<ChatMessage> folded = view.subList(0, cut);
        StringBuilder transcript = new StringBuilder();
        if (!summary.isBlank()) {
            transcript.append("Previous summary:\n").append(summary).append("\n\n");
        }
        transcript.append("Conversation:\n");
        for (ChatMessage m : folded) {
            transcript.append(line(m)).append('\n');
        }
        ModelRequest request = new ModelRequest(ModelRole.SUMMARIZER,
                List.of(SystemMessage.of(INSTRUCTIONS), UserMessage.of(transcript.toString())), List.of());
        String through = folded.get(folded.size() - 1).id();
        // the summary is bookkeeping, not a message: nothing streams, the call is only announced
        return StreamedModelCall.run(model, request, ctx, TimeOrderedIds.next(), "summarizer", StreamedModelCall.Shown.NOTHING).map(reply -> {
            ModelResponse r = reply.response();
            LlmCall call = LlmCall.of(TimeOrderedIds.next(), ctx.runId(), "summarizer", r);
            ctx.custom("summarized", Map.of("through", through, "messages", folded.size()));
            return Update.of(AgentState.SUMMARY, r.text()).set(AgentState.SUMMARIZED_THROUGH, through)
                    .set(AgentState.LLM_CALLS, call).set(AgentState.USAGE, Usage.of(call))
                    .set(AgentState.PHASE, Phase.DONE);
        });
    }

    /**
     * Index where the kept turns begin: the start of the {@code keep}-th turn from the end (0: nothing to fold). With
     * {@code keep} 0 every turn is folded, the current one included.
     */
    static int foldEnd(List<ChatMessage> view, int keep) {
        List<Integer> turnStarts = new ArrayList<>();
        for (int i = 0; i < view.size(); i++) {
            if (view.get(i) instanceof UserMessage && (i == 0 || !(view.get(i - 1) instanceof UserMessage))) {
                turnStarts.add(i);
            }
        }
        if (keep <= 0) {
            return turnStarts.isEmpty() ? 0 : view.size();
        }
        return turnStarts.size() <= keep ? 0 : turnStarts.get(turnStarts.size() - keep);
    }

    private static String line(ChatMessage m) {
        return switch (m) {
            case UserMessage u -> "User: " + u.content();
            case AssistantMessage a -> "Assistant: " + a.content()
                    + (a.hasToolCalls() ? " [called " + String.join(", ", a.toolCalls().stream().map(ToolCall::name).toList()) + "]" : "");
            case ToolMessage t -> "Tool " + t.name() + (t.error() ? " (failed)" : "") + ": " + t.content();
            case SystemMessage s -> "Note: " + s.content();
            case RemoveMessage r -> "";
        };
    }
}
