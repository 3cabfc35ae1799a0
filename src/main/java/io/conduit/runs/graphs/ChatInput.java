package io.conduit.runs.graphs;

import io.conduit.agent.MessageRules;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Update;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The input check of a graph that holds a conversation (the default assistant, and the blueprints that talk): a run's
 * input sets only the fields a client may set, its text follows {@link InputText}'s rules, and its messages make a turn
 * by {@link MessageRules}, the rules the default assistant's ingress applies again inside the run; a state update may
 * write any message but a user message the agent cannot use. So a door never accepts what a run would refuse later.
 */
public final class ChatInput implements RegisteredGraph.InputPolicy {

    private final MessageRules rules;
    private final int maxTextChars;
    private final Set<String> fields;

    /**
     * @param rules        the messages' rules
     * @param maxTextChars the longest other text a client sets (a subject, a user id)
     * @param fields       the state fields a run's input may set
     */
    public ChatInput(MessageRules rules, int maxTextChars, Set<String> fields) {
        this.rules = rules;
        this.maxTextChars = maxTextChars;
        this.fields = Set.copyOf(fields);
    }

    @Override
    public Set<String> fields() {
        return fields;
    }

    @Override
    public void check(Update input) {
        RegisteredGraph.InputPolicy.only(fields, input);
        InputText.checkMessages(input, rules.maxChars(), maxTextChars);
        MessageRules.Problem p = rules.turn(messages(input));
        if (p != null) {
            String field = p.index() < 0 ? "input.messages" : "input.messages[" + p.index() + "]" + (p.part() == null ? "" : "." + p.part());
            throw new InvalidInputException(field, p.reason());
        }
    }

    @Override
    public void checkUpdate(String field, Update values) {
        List<ChatMessage> messages = messages(values);
        for (int i = 0; i < messages.size(); i++) {
            String why = messages.get(i) instanceof UserMessage u ? rules.unusable(u) : null;
            if (why != null) {
                throw new InvalidInputException(field + ".messages[" + i + "].content", why);
            }
        }
    }

    private static List<ChatMessage> messages(Update u) {
        List<ChatMessage> out = new ArrayList<>();
        for (Update.Write w : u.writes()) {
            if (w.value() instanceof ChatMessage m) {
                out.add(m);
            }
        }
        return out;
    }
}
