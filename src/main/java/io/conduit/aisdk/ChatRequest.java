package io.conduit.aisdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.submission.RunSubmission;
import java.util.List;

/**
 * What {@code useChat} ({@code DefaultChatTransport}) sends: {@code {id, messages, trigger, messageId?, ...body}}. The
 * chat's {@code id} is the thread; of {@code messages} only the last one is read, the user's new message (the thread's
 * checkpoints hold the conversation, so the client's copy of it is not trusted nor needed). Checked whole before
 * anything is written.
 *
 * @param threadId  the chat id
 * @param assistant the assistant (path, else the body's {@code assistant_id}, else {@code agent})
 * @param messageId the user message's UI id, kept as its id in the thread
 * @param content   its content: a string, or content blocks when it carries images
 * @param text      its text alone (the answer to an interrupt)
 * @param resume    the body's {@code resume}: an explicit answer to the chat's interrupt, or null
 * @param body      the body, for the run fields passed on ({@code config}, {@code context}, {@code metadata},
 *                  {@code multitask_strategy}, {@code on_disconnect})
 */
record ChatRequest(String threadId, String assistant, String messageId, JsonNode content, String text, JsonNode resume, JsonNode body) {

    static final String DEFAULT_ASSISTANT = "agent";

    private static final List<String> PASSED_ON = List.of("config", "context", "metadata", "multitask_strategy", "on_disconnect");

    static ChatRequest parse(JsonNode body, String pathAssistant) {
        if (body == null || !body.isObject()) {
            throw new InvalidInputException("body", "must be a JSON object {id, messages, trigger}");
        }
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual() || !InputText.isId(id.asText())) {
            throw new InvalidInputException("id", "the chat id is required: 1 to 128 letters, digits or - _ . : @ (it names the thread)");
        }
        String trigger = body.path("trigger").asText("submit-message");
        if ("regenerate-message".equals(trigger)) {
            throw new RunSubmission.BadRequest("regenerate-message is not supported: the thread's history is its checkpoints; "
                    + "fork from an earlier checkpoint with the Agent Server API instead");
        }
        if (!"submit-message".equals(trigger)) {
            throw new InvalidInputException("trigger", "must be submit-message");
        }
        if (body.hasNonNull("messageId")) {
            throw new RunSubmission.BadRequest("editing an earlier message (messageId) is not supported: the thread's history is its "
                    + "checkpoints; send a new message, or fork from an earlier checkpoint with the Agent Server API");
        }
        String assistant = pathAssistant;
        if (assistant == null) {
            JsonNode a = body.get("assistant_id");
            if (a != null && !a.isNull() && (!a.isTextual() || a.asText().isEmpty())) {
                throw new InvalidInputException("assistant_id", "must be a non-empty string");
            }
            assistant = a == null || a.isNull() ? DEFAULT_ASSISTANT : a.asText();
        }
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new InvalidInputException("messages", "must be a non-empty list of UI messages");
        }
        int last = messages.size() - 1;
        JsonNode m = messages.get(last);
        String field = "messages[" + last + "]";
        if (!m.isObject() || !"user".equals(m.path("role").asText())) {
            throw new InvalidInputException(field + ".role", "the last message must be the user's new message (role user); "
                    + "tools run on the server, so a client sends no tool results");
        }
        StringBuilder text = new StringBuilder();
        ArrayNode blocks = JsonNodeFactory.instance.arrayNode();
        JsonNode parts = m.get("parts");
        if (parts != null && parts.isArray()) {
            for (int i = 0; i < parts.size(); i++) {
                part(parts.get(i), field + ".parts[" + i + "]", text, blocks);
            }
        } else if (m.path("content").isTextual()) {
            text.append(m.get("content").asText()); // an older client's message
        } else {
            throw new InvalidInputException(field + ".parts", "must be a list of parts");
        }
        if (text.toString().isBlank() && blocks.isEmpty()) {
            throw new InvalidInputException(field + ".parts", "the message has no text (blanks are none) and no image");
        }
        JsonNode content;
        if (blocks.isEmpty()) {
            content = JsonNodeFactory.instance.textNode(text.toString());
        } else {
            ArrayNode all = JsonNodeFactory.instance.arrayNode();
            if (!text.isEmpty()) {
                all.addObject().put("type", "text").put("text", text.toString());
            }
            all.addAll(blocks);
            content = all;
        }
        String messageId = m.path("id").isTextual() && InputText.isId(m.get("id").asText()) ? m.get("id").asText() : null;
        JsonNode resume = body.get("resume");
        return new ChatRequest(id.asText(), assistant, messageId, content, text.toString(), resume == null || resume.isNull() ? null : resume, body);
    }

    /** Text parts are joined; image files become image blocks; the UI's own parts (steps, data) are skipped. */
    private static void part(JsonNode p, String field, StringBuilder text, ArrayNode blocks) {
        String type = p.path("type").asText();
        if ("text".equals(type)) {
            if (!p.path("text").isTextual()) {
                throw new InvalidInputException(field + ".text", "must be a string");
            }
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(p.get("text").asText());
        } else if ("file".equals(type)) {
            if (!p.path("mediaType").asText().startsWith("image/") || !p.path("url").isTextual()) {
                throw new InvalidInputException(field, "only image files (mediaType image/*, with a url) can be sent");
            }
            blocks.addObject().put("type", "image_url").putObject("image_url").put("url", p.get("url").asText());
        }
    }

    /**
     * The Agent Server run body for this message: the message as input, or, when the chat waits on an interrupt, the
     * answer ({@code resume}, else the message's text) as {@code command.resume}; the thread is created if missing.
     */
    ObjectNode runBody(boolean waiting) {
        ObjectNode run = JsonNodeFactory.instance.objectNode();
        run.put("assistant_id", assistant).put("if_not_exists", "create");
        for (String f : PASSED_ON) {
            if (body.has(f)) {
                run.set(f, body.get(f));
            }
        }
        if (resume != null && !waiting) {
            throw new RunSubmission.BadRequest("resume answers an interrupt, and chat " + threadId + " is not waiting on one");
        }
        if (waiting) {
            run.putObject("command").set("resume", resume != null ? resume : JsonNodeFactory.instance.textNode(text));
            return run;
        }
        ObjectNode message = run.putObject("input").putArray("messages").addObject().put("role", "user");
        message.set("content", content);
        if (messageId != null) {
            message.put("id", messageId);
        }
        return run;
    }
}
