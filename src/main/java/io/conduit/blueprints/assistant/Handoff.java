package io.conduit.blueprints.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolSpec;
import io.conduit.kernel.JsonCodec;
import java.util.List;

/**
 * The supervisor's {@code handoff(agent, task)} tool. It is not run as a tool: a call to a known sub-agent routes the
 * supervisor to that sub-agent's graph with the task; any other call is answered with an error for the model.
 */
record Handoff(String agent, String task) {

    static final String NAME = "handoff";

    static ToolSpec spec(List<SubAgent> agents) {
        StringBuilder names = new StringBuilder();
        StringBuilder who = new StringBuilder();
        for (SubAgent a : agents) {
            names.append(names.isEmpty() ? "" : ",").append('"').append(a.name()).append('"');
            who.append(" ").append(a.name()).append(": ").append(a.description());
        }
        return new ToolSpec(NAME, "Hand a task to a sub-agent and get its report back." + who,
                """
                {"type":"object","properties":{"agent":{"type":"string","enum":[%s]},\
                "task":{"type":"string","minLength":1,"maxLength":4000,"description":"what the sub-agent should do, with everything it needs to know"}},\
                "required":["agent","task"],"additionalProperties":false}""".formatted(names));
    }

    /** The call's agent and task; null when the arguments are not a handoff's. */
    static Handoff of(ToolCall call) {
        if (!NAME.equals(call.name())) {
            return null;
        }
        try {
            JsonNode args = JsonCodec.MAPPER.readTree(call.arguments());
            if (args != null && args.path("agent").isTextual() && args.path("task").isTextual() && !args.path("task").asText().isBlank()) {
                return new Handoff(args.get("agent").asText(), args.get("task").asText());
            }
        } catch (Exception notJson) {
            // falls through: the model is told what a handoff takes
        }
        return null;
    }

    /** What the model reads for a handoff that cannot go anywhere. */
    static ToolOutcome refused(ToolCall call, List<SubAgent> agents) {
        Handoff h = of(call);
        String names = String.join(", ", agents.stream().map(SubAgent::name).toList());
        return new ToolOutcome(h == null
                ? "handoff takes {\"agent\": one of " + names + ", \"task\": what to do}"
                : "there is no sub-agent named " + h.agent() + "; hand off to one of: " + names, true, 0);
    }
}
