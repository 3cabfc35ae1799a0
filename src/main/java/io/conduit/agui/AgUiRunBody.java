package io.conduit.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.Interrupt;
import io.conduit.graph.MessageList;
import io.conduit.graph.StateSnapshot;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.StreamMode;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The Agent Server run request ({@link io.conduit.runs.submission.RunSubmission}'s body) a {@link RunAgentInput} stands for, given
 * the thread as it is: the thread's checkpointed history is the truth, so only the input's user and tool messages the
 * thread does not hold yet are appended; {@code resume} becomes {@code command.resume} by interrupt id; {@code tools}
 * become {@code config.configurable.client_tools}, which the default agent's planner binds. A resume that does not
 * answer exactly the thread's open interrupts is a {@link Refusal}, said as RUN_ERROR before anything is written.
 */
final class AgUiRunBody {

    /** Why the run cannot start on this thread as it is: RUN_ERROR with this code. */
    static final class Refusal extends RuntimeException {
        final String code;

        Refusal(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    private AgUiRunBody() {
    }

    static ObjectNode of(String assistantId, RunAgentInput input, Optional<StateSnapshot> thread) {
        ObjectNode body = JsonCodec.MAPPER.createObjectNode().put("assistant_id", assistantId).put("if_not_exists", "create")
                .put("on_disconnect", "cancel"); // a client that aborts (abortRun) means stop
        body.putArray("stream_mode").add(StreamMode.VALUES.wire());
        body.putObject("metadata").put("ag_ui_run_id", input.runId());
        if (!input.tools().isEmpty()) {
            ArrayNode tools = body.putObject("config").putObject("configurable").putArray("client_tools");
            for (JsonNode t : input.tools()) {
                ObjectNode spec = tools.addObject().put("name", t.get("name").asText());
                if (t.path("description").isTextual()) {
                    spec.put("description", t.get("description").asText());
                }
                if (t.path("parameters").isObject()) {
                    spec.set("parameters", t.get("parameters"));
                }
            }
        }
        ArrayNode fresh = newMessages(input, thread);
        Set<String> open = new LinkedHashSet<>();
        thread.ifPresent(s -> s.interrupts().stream().filter(Interrupt::answerable).map(Interrupt::id).forEach(open::add));
        if (input.resume().isEmpty()) {
            if (!open.isEmpty()) {
                throw new Refusal("resume_required", "the thread waits on interrupts " + open + ": answer each of them in resume");
            }
            if (fresh.isEmpty()) {
                throw new InvalidInputException("messages", "brings no user or tool message the thread does not already hold");
            }
            body.putObject("input").set("messages", fresh);
            return body;
        }
        Set<String> answered = new HashSet<>();
        ObjectNode byId = JsonCodec.MAPPER.createObjectNode();
        for (RunAgentInput.Resume r : input.resume()) {
            if (!open.contains(r.interruptId())) {
                throw new Refusal("invalid_resume", "interrupt " + r.interruptId() + " is not open on thread " + input.threadId()
                        + (open.isEmpty() ? " (none is)" : "; open: " + open));
            }
            answered.add(r.interruptId());
            byId.set(r.interruptId(), r.payload() == null ? JsonCodec.MAPPER.nullNode() : r.payload());
        }
        if (!answered.containsAll(open)) {
            open.removeAll(answered);
            throw new Refusal("resume_required", "resume must answer every open interrupt; unanswered: " + open);
        }
        ObjectNode command = body.putObject("command");
        command.set("resume", byId);
        if (!fresh.isEmpty()) {
            command.putObject("update").set("messages", fresh);
        }
        return body;
    }

    /** The input's user and tool messages that the thread does not hold (by id), as LangChain messages. */
    private static ArrayNode newMessages(RunAgentInput input, Optional<StateSnapshot> thread) {
        Set<String> known = new HashSet<>();
        thread.ifPresent(s -> {
            if (s.values().get("messages") instanceof MessageList<?> held) {
                held.forEach(m -> known.add(m.id()));
            }
        });
        ArrayNode out = JsonCodec.MAPPER.createArrayNode();
        for (JsonNode m : input.messages()) {
            String id = m.get("id").asText();
            if (known.contains(id)) {
                continue;
            }
            switch (m.get("role").asText()) {
                case "user" -> out.addObject().put("type", "human").put("id", id).put("content", AgUiMessages.text(m.get("content")));
                case "tool" -> out.addObject().put("type", "tool").put("id", id).put("content", AgUiMessages.text(m.get("content")))
                        .put("tool_call_id", m.get("toolCallId").asText());
                default -> {
                    // assistant, system, developer, activity, reasoning: the thread's own history is the truth
                }
            }
        }
        return out;
    }
}
