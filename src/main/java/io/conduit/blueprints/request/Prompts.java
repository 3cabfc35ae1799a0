package io.conduit.blueprints.request;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.kernel.TimeOrderedIds;
import java.util.List;

/**
 * The messages of each call: the role first, then one user message that states the task and quotes the request
 * (and what the user clarified), so every call stands alone and a scripted model can tell them apart.
 */
final class Prompts {

    private Prompts() {
    }

    static List<ChatMessage> of(RequestInput input, String task) {
        String language = input.language() == null || input.language().isBlank() ? "" : " Answer in " + input.language() + ".";
        return List.of(new SystemMessage(TimeOrderedIds.next(), "You handle one user request at a time: you check that it is clear, "
                        + "plan it, carry out the plan step by step and write the answer." + language),
                new UserMessage(TimeOrderedIds.next(), task));
    }

    static String request(RequestInput input, Processing p) {
        return "Request: " + input.message() + (p.clarifications().isEmpty() ? "" : "\nThe user clarified: " + String.join(" | ", p.clarifications()));
    }
}
