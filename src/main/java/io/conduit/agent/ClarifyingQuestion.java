package io.conduit.agent;

import io.conduit.kernel.JsonCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verifier's question to the user: the interrupt's payload, and the user's answer read back from a resume.
 *
 * <p>The payload says the question twice. {@code question} is the text that Conduit's page, {@code useStream} clients,
 * A2A and AG-UI show. {@code action_requests}/{@code review_configs} is LangChain's human-in-the-loop request, the
 * only interrupt shape LangGraph's agent-chat-ui offers a form for: one {@code ask_user} action whose arguments are
 * the question and the {@code answer} the user fills in (an "edit" decision). So a resume is either plain text or that shape's {@code decisions}.
 */
final class ClarifyingQuestion {

    static final String ACTION = "ask_user";

    private ClarifyingQuestion() {
    }

    static Map<String, Object> payload(String question, List<String> problems) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("question", question);
        p.put("problems", problems);
        // agent-chat-ui's form shows an action's arguments, not its description, by default: the question is one too
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("question", question);
        args.put("answer", "");
        p.put("action_requests", List.of(Map.of("name", ACTION, "args", args, "description", question)));
        p.put("review_configs", List.of(Map.of("action_name", ACTION, "allowed_decisions", List.of("edit"))));
        return p;
    }

    /**
     * The user's answer in a resume value, trimmed; empty when they gave none (an "approve", an unchanged form).
     * Text is the answer; {@code {decisions: [...]}} gives the first decision's edited {@code answer} or a reject's
     * {@code message} (any other decision is no answer); {@code {answer: ...}} gives its answer; anything else is read
     * as its JSON text.
     */
    static String answer(Object resume) {
        if (resume == null) {
            return "";
        }
        if (resume instanceof String s) {
            return s.strip();
        }
        if (resume instanceof Map<?, ?> m) {
            if (m.get("decisions") instanceof List<?> decisions) {
                return decisions.isEmpty() ? "" : fromDecision(decisions.get(0));
            }
            if (m.containsKey("answer")) {
                return answer(m.get("answer"));
            }
        }
        return JsonCodec.MAPPER.valueToTree(resume).toString();
    }

    private static String fromDecision(Object decision) {
        if (!(decision instanceof Map<?, ?> d)) {
            return answer(decision);
        }
        return switch (String.valueOf(d.get("type"))) {
            case "edit" -> d.get("edited_action") instanceof Map<?, ?> action && action.get("args") instanceof Map<?, ?> args
                    ? answer(args.get("answer"))
                    : "";
            case "reject" -> answer(d.get("message"));
            default -> "";
        };
    }
}
