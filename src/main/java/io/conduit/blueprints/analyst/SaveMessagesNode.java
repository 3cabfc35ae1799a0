package io.conduit.blueprints.analyst;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.MessageList;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code save_messages}: records the turn (the question, the answer, the tools called and the rounds they took) in
 * {@code turns}, keyed by the run, so the thread keeps a short history of what was asked and answered beside the
 * full conversation in {@code messages}.
 */
final class SaveMessagesNode implements Node {

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        MessageList<ChatMessage> all = state.get(AgentState.MESSAGES);
        String question = "";
        String answer = "";
        List<String> tools = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            ChatMessage m = all.get(i);
            if (m instanceof UserMessage u) {
                question = u.content();
                break;
            }
            if (m instanceof AssistantMessage a && answer.isEmpty() && !a.hasToolCalls()) {
                answer = a.content();
            } else if (m instanceof ToolMessage t) {
                tools.add(0, t.name());
            }
        }
        return Uni.createFrom().item(Update.of(AnalystState.TURNS,
                new Turn(ctx.runId(), question, answer, List.copyOf(tools), state.get(AnalystState.ITERATIONS))));
    }
}
