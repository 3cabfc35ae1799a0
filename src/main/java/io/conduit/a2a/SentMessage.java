package io.conduit.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InputText;

/**
 * The params of {@code message/send} and {@code message/stream}: {@code {message: {kind: message, role: user,
 * messageId, parts, contextId?, taskId?}, configuration?, metadata?}}. The message's text parts, joined, are the
 * user's message; other parts are refused (this door takes text). Checked whole before anything is written.
 *
 * @param text      the text parts, joined by a line break
 * @param messageId the client's message id, kept as the human message's id when it is one of ours
 * @param contextId the context (our thread), or null for a new one
 * @param taskId    the task the message continues (a run of the context), or null
 */
record SentMessage(String text, String messageId, String contextId, String taskId) {

    static SentMessage of(JsonNode params) {
        JsonNode m = params.get("message");
        if (m == null || !m.isObject()) {
            throw JsonRpcError.invalidParams("message is required: {kind: \"message\", role: \"user\", messageId, parts}");
        }
        if (!"user".equals(m.path("role").asText())) {
            throw JsonRpcError.invalidParams("message.role must be \"user\"");
        }
        JsonNode kind = m.get("kind");
        if (kind != null && !"message".equals(kind.asText())) {
            throw JsonRpcError.invalidParams("message.kind must be \"message\"");
        }
        if (!m.path("messageId").isTextual() || m.get("messageId").asText().isEmpty()) {
            throw JsonRpcError.invalidParams("message.messageId must be a non-empty string");
        }
        JsonNode parts = m.get("parts");
        if (parts == null || !parts.isArray() || parts.isEmpty()) {
            throw JsonRpcError.invalidParams("message.parts must be a non-empty list of parts");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            JsonNode p = parts.get(i);
            String partKind = p.path("kind").asText(p.path("type").asText());
            if (!"text".equals(partKind) || !p.path("text").isTextual()) {
                throw JsonRpcError.invalidParams("message.parts[" + i + "] must be a text part {kind: \"text\", text}: this agent reads text");
            }
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(p.get("text").asText());
        }
        if (text.toString().isBlank()) {
            throw JsonRpcError.invalidParams("message.parts have no text (blanks are none)");
        }
        String contextId = id(m, "contextId");
        String taskId = id(m, "taskId");
        String messageId = m.get("messageId").asText();
        return new SentMessage(text.toString(), InputText.isId(messageId) ? messageId : null, contextId, taskId);
    }

    private static String id(JsonNode m, String field) {
        JsonNode v = m.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual() || !InputText.isId(v.asText())) {
            throw JsonRpcError.invalidParams("message." + field + " must be 1 to 128 letters, digits or - _ . : @");
        }
        return v.asText();
    }

    /**
     * The Agent Server run body for this message on its thread: the text as a human message, or, when the thread
     * waits on an interrupt ({@code input-required}), the text as the interrupt's answer; the thread is created if
     * missing.
     */
    ObjectNode runBody(String assistantId, boolean waiting) {
        ObjectNode run = JsonCodec.MAPPER.createObjectNode().put("assistant_id", assistantId).put("if_not_exists", "create");
        run.putObject("metadata").put("source", "a2a");
        if (waiting) {
            run.putObject("command").put("resume", text);
            return run;
        }
        ObjectNode message = run.putObject("input").putArray("messages").addObject().put("role", "user").put("content", text);
        if (messageId != null) {
            message.put("id", messageId);
        }
        return run;
    }
}
