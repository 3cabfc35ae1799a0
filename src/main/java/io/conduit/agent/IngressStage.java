package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.UserMemory;
import io.conduit.graph.GraphException;
import io.conduit.graph.MessageList;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.State;
import io.conduit.graph.StateGraph;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The first stage of a turn: checks the user's input ({@link MessageRules}, the rules a run's submission checked it
 * with before anything was written), applies the safety policy (deny patterns, then the optional moderation hook), and
 * loads the user's context from long-term memory. A turn with no usable message fails the run with
 * {@code invalid_request}; a refused turn ends with a polite answer and {@code safety_check=false} in state.
 */
public final class IngressStage implements Node {

    /** A content check beyond patterns (a moderation API, say): true means allowed. */
    public interface ModerationHook {
        Uni<Boolean> allows(String text);
    }

    private final AgentConfig config;
    private final UserMemory memory;
    private final ModerationHook moderation;
    private final List<Pattern> deny;
    private final MessageRules rules;

    public IngressStage(AgentConfig config, UserMemory memory, ModerationHook moderation) {
        this.config = config;
        this.rules = MessageRules.of(config);
        this.memory = memory;
        this.moderation = moderation;
        this.deny = config.denyPatterns().orElse(List.of()).stream()
                .map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)).toList();
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        MessageList<ChatMessage> messages = state.get(AgentState.MESSAGES);
        List<UserMessage> turn = newUserMessages(messages);
        if (turn.isEmpty() && answersToolCalls(messages)) {
            return Uni.createFrom().item(continueWithToolResults(state, ctx));
        }
        List<UserMessage> input = usable(turn);
        String text = String.join("\n", input.stream().map(UserMessage::content).toList());
        // the turn's messages left out are removed from the thread's messages (see usable)
        List<ChatMessage> leftOut = turn.stream().filter(m -> !input.contains(m)).<ChatMessage>map(m -> new RemoveMessage(m.id())).toList();
        Update start = newTurn(closeUnfinishedTurn(messages, turn.size(), input), ctx).add(AgentState.MESSAGES, leftOut);
        if (deny.stream().anyMatch(p -> p.matcher(text).find())) {
            return Uni.createFrom().item(refuse(start));
        }
        Uni<Boolean> allowed = moderation == null ? Uni.createFrom().item(true) : moderation.allows(text);
        return allowed.flatMap(ok -> ok
                ? memory.all(state.get(AgentState.USER_ID)).map(m -> start.set(AgentState.USER_CONTEXT, new UserContext(m)).set(AgentState.PHASE, Phase.PLAN))
                : Uni.createFrom().item(refuse(start)));
    }

    private Update refuse(Update start) {
        return start.set(AgentState.SAFETY_CHECK, false).set(AgentState.PHASE, Phase.REFUSED)
                .set(AgentState.MESSAGES, new AssistantMessage(io.conduit.kernel.TimeOrderedIds.next(), config.refusal(), List.of(), null, "ingress"));
    }

    /**
     * A turn that stopped between the model's tool calls and their results (a cancelled, crashed or interrupted run)
     * leaves calls no tool message answers, and a model refuses a conversation like that. Each such call gets a tool
     * message saying it was interrupted, placed before this turn's user messages: they are removed and appended
     * again after the closing messages, so the conversation reads in order. Nothing when every call has its result.
     */
    static Update closeUnfinishedTurn(MessageList<ChatMessage> messages, List<UserMessage> input) {
        return closeUnfinishedTurn(messages, input.size(), input);
    }

    /** {@link #closeUnfinishedTurn(MessageList, List)} of a turn of {@code turnSize} messages, of which {@code input} are kept. */
    static Update closeUnfinishedTurn(MessageList<ChatMessage> messages, int turnSize, List<UserMessage> input) {
        Set<String> answered = new HashSet<>();
        for (ChatMessage m : messages) {
            if (m instanceof ToolMessage t) {
                answered.add(t.toolCallId());
            }
        }
        List<ChatMessage> closing = new ArrayList<>();
        for (int i = 0; i < messages.size() - turnSize; i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                for (ToolCall c : a.toolCalls()) {
                    if (answered.add(c.id())) {
                        closing.add(new ToolMessage(TimeOrderedIds.next(), c.id(), c.name(), INTERRUPTED, true));
                    }
                }
            }
        }
        if (closing.isEmpty()) {
            return Update.none();
        }
        List<ChatMessage> writes = new ArrayList<>();
        input.forEach(u -> writes.add(new RemoveMessage(u.id())));
        writes.addAll(closing);
        writes.addAll(input);
        return Update.none().add(AgentState.MESSAGES, writes);
    }

    /**
     * A turn that brings, instead of a user message, the results of tool calls the client ran (tools declared in
     * {@code client_tools}): the previous turn ended on those calls, and this one plans on from their results. The
     * calls of that reply the client did not answer are closed, as those of a stopped turn are.
     */
    private Update continueWithToolResults(State state, NodeContext ctx) {
        MessageList<ChatMessage> messages = state.get(AgentState.MESSAGES);
        for (int i = messages.size() - 1; i >= 0 && messages.get(i) instanceof ToolMessage t; i--) {
            String why = rules.unusable(t);
            if (why != null) {
                throw invalid(why);
            }
        }
        return newTurn(closeUnfinishedTurn(messages, List.of()), ctx).set(AgentState.PHASE, Phase.PLAN);
    }

    /** What every turn starts from: its thread, a fresh retry budget and scratchpad, the input found safe so far. */
    private static Update newTurn(Update base, NodeContext ctx) {
        return base.set(AgentState.THREAD_ID, ctx.threadId())
                .set(AgentState.RETRY_COUNT, 0)
                .set(AgentState.SCRATCHPAD, Scratchpad.EMPTY)
                .set(AgentState.SAFETY_CHECK, true);
    }

    /** The conversation ends with tool messages, each answering a call of the assistant message just before them. */
    static boolean answersToolCalls(MessageList<ChatMessage> messages) {
        int i = messages.size();
        Set<String> answered = new HashSet<>();
        while (i > 0 && messages.get(i - 1) instanceof ToolMessage t) {
            answered.add(t.toolCallId());
            i--;
        }
        if (answered.isEmpty() || i == 0 || !(messages.get(i - 1) instanceof AssistantMessage a)) {
            return false;
        }
        Set<String> calls = new HashSet<>();
        a.toolCalls().forEach(c -> calls.add(c.id()));
        return calls.containsAll(answered);
    }

    /** What a tool call left unanswered by a turn that stopped reads as its result. */
    static final String INTERRUPTED = "interrupted: the turn stopped before this tool returned";

    /** The user messages of this turn: those after the last message of any other kind. */
    static List<UserMessage> newUserMessages(MessageList<ChatMessage> messages) {
        int i = messages.size();
        while (i > 0 && messages.get(i - 1) instanceof UserMessage) {
            i--;
        }
        return messages.asList().subList(i, messages.size()).stream().map(UserMessage.class::cast).toList();
    }

    /**
     * The messages of the turn the agent can use ({@link MessageRules#unusable}). A run's submission refuses the others
     * before they are written, so one here was stored past that check: by an older version, by a run that failed here,
     * or by a caller of the graph itself. Failing the turn for it would fail every later turn too (their messages come
     * after it, in the same run of user messages), so the turn goes on without it and ingress removes it from the
     * thread's messages; the checkpoints before keep it. Only a turn left with no usable message fails, saying why its
     * newest message is not. The number of messages is not checked here: the submission checked the run's input, and
     * the messages of earlier turns that failed (a model that was down) are answered with this one.
     */
    private List<UserMessage> usable(List<UserMessage> turn) {
        if (turn.isEmpty()) {
            throw invalid("a turn starts with a user message");
        }
        List<UserMessage> out = new ArrayList<>(turn.size());
        String newestProblem = null;
        for (UserMessage m : turn) {
            String why = rules.unusable(m);
            if (why == null) {
                out.add(m);
            } else {
                newestProblem = why;
            }
        }
        if (out.isEmpty()) {
            throw invalid(newestProblem);
        }
        return out;
    }

    private static GraphException invalid(String message) {
        return new GraphException(GraphException.Code.INVALID_REQUEST, message);
    }

    /** After ingress: plan, unless the turn was refused. */
    public static Route route(State state) {
        return state.get(AgentState.SAFETY_CHECK) ? Route.to("planner") : Route.to(StateGraph.END);
    }
}
