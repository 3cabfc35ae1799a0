package io.conduit.blueprints.analyst;

import io.conduit.agent.AgentState;
import io.conduit.agent.Phase;
import io.conduit.agent.StreamedModelCall;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolBox;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.Send;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code agent}: one streamed model call over the conversation, with the files in the system prompt and the CSV tools
 * bound. Tool calls go to {@code tools} (one task each); after {@code conduit.blueprints.analyst.max-iterations} rounds the
 * tools are no longer bound, so the model answers with what it found. Its answer streams token by token.
 */
final class AgentNode implements Node {

    static final String INSTRUCTIONS = """
            You are a data analyst. Answer the user's questions about the CSV files of this conversation. Compute every \
            number with the tools (filter_and_aggregate for totals and averages of some rows, aggregate for all rows, \
            filter_rows, search_text, column_statistics, compare, load_rows); never guess a number or a column name. \
            Say which filters and columns you used, and keep the answer short.""";

    private final LanguageModel model;
    private final ToolBox tools;
    private final AnalystConfig config;

    AgentNode(LanguageModel model, ToolBox tools, AnalystConfig config) {
        this.model = model;
        this.tools = tools;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        int rounds = state.get(AnalystState.ITERATIONS);
        String prompt = INSTRUCTIONS + "\n\n" + state.get(AnalystState.FILES).describe();
        if (rounds >= config.maxIterations()) {
            prompt += "\n\nThe tools are used up for this question: answer with what they found.";
        }
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(new SystemMessage("analyst-system", prompt));
        state.get(AgentState.MESSAGES).forEach(messages::add);
        ModelRequest request = new ModelRequest(ModelRole.PLANNER, messages, rounds >= config.maxIterations() ? List.of() : tools.specs());
        return StreamedModelCall.run(model, request, ctx, TimeOrderedIds.next(), "agent", StreamedModelCall.Shown.ALL)
                .map(reply -> {
                    Update u = Update.of(AgentState.MESSAGES, reply.message());
                    return reply.message().hasToolCalls() ? u.set(AnalystState.ITERATIONS, rounds + 1).set(AgentState.PHASE, Phase.EXECUTE)
                            : u.set(AgentState.PHASE, Phase.ANSWERED);
                });
    }

    /** Each tool call to its own {@code tools} task; an answer to {@code save_messages}. */
    static Route route(State state) {
        if (state.get(AgentState.PHASE) == Phase.EXECUTE) {
            List<Send> sends = new ArrayList<>();
            for (ToolCall call : AgentState.lastAssistant(state).toolCalls()) {
                sends.add(new Send(AnalystGraph.TOOLS, call));
            }
            return Route.send(sends);
        }
        return Route.to(AnalystGraph.SAVE_MESSAGES);
    }
}
