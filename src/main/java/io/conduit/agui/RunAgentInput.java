package io.conduit.agui;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.runs.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * AG-UI's {@code RunAgentInput}, checked: {@code threadId} (our thread, made if missing), {@code runId} (the client's
 * name for the run; ours is given back in RUN_STARTED), {@code messages}, {@code tools} (front-end tools),
 * {@code resume} (answers to the open interrupts). {@code state}, {@code context} and {@code forwardedProps} are
 * accepted and not used: the thread's checkpoints are the state. Anything malformed is an {@link InvalidInputException}
 * (422), before anything is written.
 */
record RunAgentInput(String threadId, String runId, List<JsonNode> messages, List<JsonNode> tools, List<Resume> resume) {

    /** One answer: {@code status} resolved or cancelled, {@code payload} the answer (null when absent). */
    record Resume(String interruptId, String status, JsonNode payload) {
    }

    static RunAgentInput parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new InvalidInputException("body", "must be a RunAgentInput JSON object");
        }
        String threadId = text(body, "threadId");
        String runId = text(body, "runId");
        List<JsonNode> messages = array(body, "messages", true);
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            if (!m.isObject() || !m.path("id").isTextual() || !m.path("role").isTextual()) {
                throw new InvalidInputException("messages[" + i + "]", "must be a message with a string id and role");
            }
            if ("tool".equals(m.get("role").asText()) && !m.path("toolCallId").isTextual()) {
                throw new InvalidInputException("messages[" + i + "].toolCallId", "a tool message needs the id of the call it answers");
            }
        }
        List<JsonNode> tools = array(body, "tools", false);
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = tools.get(i);
            if (!t.isObject() || !t.path("name").isTextual()) {
                throw new InvalidInputException("tools[" + i + "]", "must be a tool with a string name");
            }
            if (t.hasNonNull("parameters") && !t.get("parameters").isObject()) {
                throw new InvalidInputException("tools[" + i + "].parameters", "must be a JSON schema object");
            }
        }
        List<Resume> resume = new ArrayList<>();
        List<JsonNode> answers = array(body, "resume", false);
        for (int i = 0; i < answers.size(); i++) {
            JsonNode r = answers.get(i);
            String status = r.path("status").asText("");
            if (!r.path("interruptId").isTextual() || !("resolved".equals(status) || "cancelled".equals(status))) {
                throw new InvalidInputException("resume[" + i + "]", "must be {interruptId, status: resolved|cancelled, payload?}");
            }
            resume.add(new Resume(r.get("interruptId").asText(), status, r.hasNonNull("payload") ? r.get("payload") : null));
        }
        return new RunAgentInput(threadId, runId, messages, tools, List.copyOf(resume));
    }

    private static String text(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || !n.isTextual() || n.asText().isEmpty()) {
            throw new InvalidInputException(field, "is required and must be a non-empty string");
        }
        return n.asText();
    }

    private static List<JsonNode> array(JsonNode body, String field, boolean required) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new InvalidInputException(field, "is required");
            }
            return List.of();
        }
        if (!n.isArray()) {
            throw new InvalidInputException(field, "must be an array");
        }
        List<JsonNode> out = new ArrayList<>();
        n.forEach(out::add);
        return out;
    }
}
