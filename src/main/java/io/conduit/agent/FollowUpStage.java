package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.Channel;
import io.conduit.graph.MessageList;
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
 * An end-of-run stage for any graph whose state has {@link AgentState#MESSAGES}: asks a cheap model for follow-up
 * questions the user might ask next, streams them as the custom event {@value #EVENT} ({@code {"questions": [...]}})
 * and keeps them in {@code target}. The call uses the summarizer's model ({@link ModelRole#SUMMARIZER},
 * {@code conduit.llm.summarizer.model}) unless a model is named; its text is bookkeeping and does not stream. A run
 * with {@code config.configurable.suggestions=false} skips it, and so does a turn with no answer to follow up.
 */
public final class FollowUpStage implements Node {

    /** The custom event's name (the thread protocol's {@code custom:suggestions} channel). */
    public static final String EVENT = "suggestions";
    /** The run's setting that turns the suggestions off. */
    public static final String SETTING = "suggestions";

    static final String INSTRUCTIONS = "You propose follow-up questions for a chat assistant's user. "
            + "Reply with one short question per line, written as the user would ask it, and nothing else.";

    private static final int MAX_CHARS = 200;
    private static final int TRANSCRIPT_CHARS = 4000;

    private final LanguageModel model;
    private final String modelName;
    private final int count;
    private final Channel<?, Suggestions> target;

    /** @param modelName the model to ask; null for the summarizer's */
    public FollowUpStage(LanguageModel model, String modelName, int count, Channel<?, Suggestions> target) {
        this.model = model;
        this.modelName = modelName;
        this.count = count;
        this.target = target;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        String transcript = lastTurn(state.get(AgentState.MESSAGES));
        if (count < 1 || Boolean.FALSE.equals(ctx.configurable().get(SETTING)) || transcript == null) {
            return Uni.createFrom().item(Update.of(target, Suggestions.NONE));
        }
        List<ChatMessage> messages = List.of(SystemMessage.of(INSTRUCTIONS), UserMessage.of(
                "Propose " + count + " follow-up questions for this conversation.\n\n" + transcript));
        ModelRequest request = new ModelRequest(ModelRole.SUMMARIZER, messages, List.of()).withModel(modelName);
        return HookedModelCall.run(model, PreModelHook.none(), request, state, ctx, TimeOrderedIds.next(), "follow_up", false)
                .map(reply -> {
                    Suggestions s = new Suggestions(parse(reply.response().text(), count));
                    ctx.custom(EVENT, Map.of("questions", s.questions()));
                    LlmCall call = reply.record(ctx.runId(), "follow_up");
                    Update u = Update.of(target, s);
                    if (state.schema().indexOf(AgentState.LLM_CALLS.name()) >= 0) {
                        u = u.set(AgentState.LLM_CALLS, call).set(AgentState.USAGE, Usage.of(call));
                    }
                    return u;
                });
    }

    /** The last user message and the answer after it, as text; null when the turn has no answer. */
    static String lastTurn(MessageList<ChatMessage> messages) {
        String answer = null;
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage m = messages.get(i);
            if (answer == null && m instanceof AssistantMessage a && !a.hasToolCalls() && !a.content().isBlank()) {
                answer = a.content();
            } else if (m instanceof UserMessage u) {
                if (answer == null) {
                    return null;
                }
                return cut("User: " + u.content() + "\nAssistant: " + answer);
            }
        }
        return null;
    }

    /** One question per line; list markers and quotes dropped, blank and overlong lines skipped. */
    static List<String> parse(String text, int count) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String q = line.strip().replaceFirst("^(?:[-*•]|\\d+[.)])\\s*", "").replaceAll("^\"|\"$", "").strip();
            if (!q.isEmpty() && q.length() <= MAX_CHARS && !out.contains(q)) {
                out.add(q);
            }
            if (out.size() == count) {
                break;
            }
        }
        return out;
    }

    private static String cut(String s) {
        return s.length() <= TRANSCRIPT_CHARS ? s : s.substring(0, TRANSCRIPT_CHARS);
    }
}
