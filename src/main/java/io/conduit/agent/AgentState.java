package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.graph.Channels;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.MessageList;
import io.conduit.graph.MessagesChannel;
import io.conduit.graph.ReducerChannel;
import io.conduit.graph.State;
import io.conduit.graph.StateSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The default assistant's state. Messages keep the whole conversation (the checkpoint is the record); what a model
 * sees is {@link #modelView}: the running summary stands in for the messages up to {@code summarized_through}.
 */
public final class AgentState {

    public static final MessagesChannel<ChatMessage> MESSAGES = Channels.messages("messages", ChatMessage.class);
    public static final LastValueChannel<String> THREAD_ID = Channels.lastValue("thread_id", String.class, "");
    public static final LastValueChannel<String> USER_ID = Channels.lastValue("user_id", String.class, "anonymous");
    public static final LastValueChannel<UserContext> USER_CONTEXT = Channels.lastValue("user_context", UserContext.class, UserContext.EMPTY);
    /** Where the turn stands. */
    public static final LastValueChannel<Phase> PHASE = Channels.lastValue("phase", Phase.class, Phase.NONE);
    public static final LastValueChannel<Scratchpad> SCRATCHPAD = Channels.lastValue("scratchpad", Scratchpad.class, Scratchpad.EMPTY);
    public static final LastValueChannel<Integer> RETRY_COUNT = Channels.lastValue("retry_count", Integer.class, 0);
    public static final LastValueChannel<String> SUMMARY = Channels.lastValue("summary", String.class, "");
    /** Id of the last message folded into the summary; models see the messages after it. */
    public static final LastValueChannel<String> SUMMARIZED_THROUGH = Channels.lastValue("summarized_through", String.class, "");
    /** False once the safety policy refused the turn. */
    public static final LastValueChannel<Boolean> SAFETY_CHECK = Channels.lastValue("safety_check", Boolean.class, true);
    public static final MessagesChannel<LlmCall> LLM_CALLS = Channels.messages("llm_calls", LlmCall.class);
    /** Tokens and cost of every model call of the thread, summed. */
    public static final ReducerChannel<Usage> USAGE = Channels.reduce("usage", Usage.class, Usage.NONE, Usage::plus);

    public static final StateSchema SCHEMA = StateSchema.of(MESSAGES, THREAD_ID, USER_ID, USER_CONTEXT, PHASE, SCRATCHPAD,
            RETRY_COUNT, SUMMARY, SUMMARIZED_THROUGH, SAFETY_CHECK, LLM_CALLS, USAGE);

    private AgentState() {
    }

    /** The messages a model should see: those after the summarized ones. */
    public static List<ChatMessage> modelView(State state) {
        MessageList<ChatMessage> all = state.get(MESSAGES);
        String through = state.get(SUMMARIZED_THROUGH);
        int from = through.isEmpty() ? 0 : all.indexOf(through) + 1;
        List<ChatMessage> view = new ArrayList<>(all.size() - from);
        for (int i = from; i < all.size(); i++) {
            view.add(all.get(i));
        }
        return view;
    }

    /** Tokens and cost of one run's model calls. */
    public static Usage runUsage(State state, String runId) {
        List<LlmCall> calls = new ArrayList<>();
        for (LlmCall c : state.get(LLM_CALLS)) {
            if (runId.equals(c.runId())) {
                calls.add(c);
            }
        }
        return Usage.sum(calls);
    }

    /** The newest assistant message, or null. */
    public static AssistantMessage lastAssistant(State state) {
        MessageList<ChatMessage> all = state.get(MESSAGES);
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i) instanceof AssistantMessage a) {
                return a;
            }
        }
        return null;
    }
}
