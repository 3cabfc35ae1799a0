package io.conduit.completions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.wire.LangChainMessages;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;

/**
 * A {@code POST /v1/chat/completions} body, checked whole before anything is written: {@code model} (an assistant),
 * {@code messages} (each one read as the run will read it, so a bad one is named here by its index), {@code stream},
 * {@code stream_options.include_usage}, and the conversation: the {@code X-Conduit-Thread} header, else {@code user}.
 * Sampling parameters ({@code temperature}, {@code max_tokens}, ...) and {@code tools} are checked and ignored
 * ({@link SamplingParameters}): the assistant has its own model settings and its own tools.
 *
 * @param threadId   the conversation's thread, or null for a stateless call
 * @param newest     the newest user message: what a conversation appends to its thread
 * @param newestText its text: what answers the thread's interrupt when it waits at one
 */
record ChatRequest(String model, ArrayNode messages, boolean stream, boolean includeUsage, String threadId, JsonNode newest,
                   String newestText) {

    static final String THREAD_HEADER = "X-Conduit-Thread";

    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    /** {@code threadHeader}: the request's {@value #THREAD_HEADER}, or null. Throws {@link BadCompletionRequest}. */
    static ChatRequest parse(JsonNode body, String threadHeader) {
        if (body == null || !body.isObject()) {
            throw BadCompletionRequest.invalid(null, "invalid_json", "The request body must be a JSON object.");
        }
        String model = string(body, "model");
        if (model == null || model.isEmpty()) {
            throw BadCompletionRequest.invalid("model", "missing_required_parameter", "You must provide a model parameter.");
        }
        JsonNode messages = body.get("messages");
        if (messages == null || messages.isNull()) {
            throw BadCompletionRequest.invalid("messages", "missing_required_parameter", "Missing required parameter: 'messages'.");
        }
        if (!messages.isArray()) {
            throw BadCompletionRequest.invalid("messages", "invalid_type", "Invalid type for 'messages': expected an array.");
        }
        if (messages.isEmpty()) {
            throw BadCompletionRequest.invalid("messages", "empty_array", "Invalid 'messages': empty array. Expected an array with minimum length 1.");
        }
        int newest = -1;
        String newestText = null;
        for (int i = 0; i < messages.size(); i++) {
            String role = role(messages.get(i), i);
            ChatMessage m = read(messages.get(i), i);
            if ("user".equals(role) && m instanceof UserMessage u) {
                newest = i;
                newestText = u.content();
            }
        }
        if (newest < 0) {
            throw BadCompletionRequest.invalid("messages", "invalid_value", "'messages' must contain a user message: the one the assistant answers.");
        }
        boolean stream = flag(body, "stream");
        JsonNode options = body.get("stream_options");
        if (options != null && !options.isNull() && !options.isObject()) {
            throw BadCompletionRequest.invalid("stream_options", "invalid_type", "Invalid type for 'stream_options': expected an object.");
        }
        boolean usage = options != null && options.isObject() && flag(options, "include_usage");
        SamplingParameters.check(body);
        JsonNode n = body.get("n");
        if (n != null && !n.isNull() && !(n.canConvertToInt() && n.asInt() == 1)) {
            throw BadCompletionRequest.invalid("n", "invalid_value", "Invalid 'n': an assistant gives one answer (n must be 1).");
        }
        return new ChatRequest(model, (ArrayNode) messages, stream, usage, thread(threadHeader, string(body, "user")), messages.get(newest),
                newestText);
    }

    /**
     * The conversation's thread: the header names one exactly (it must be a thread id); {@code user} is used as it is
     * when it is one, else as the seed of a stable uuid (any string names one conversation, always the same).
     */
    static String thread(String header, String user) {
        if (header != null) {
            if (!InputText.isId(header)) {
                throw BadCompletionRequest.invalid(THREAD_HEADER, "invalid_value",
                        "Invalid " + THREAD_HEADER + ": a thread id is 1 to 128 letters, digits or - _ . : @");
            }
            return header;
        }
        if (user == null || user.isEmpty()) {
            return null;
        }
        return InputText.isId(user) ? user : UUID.nameUUIDFromBytes(("conduit-openai-user:" + user).getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static String role(JsonNode m, int i) {
        if (!m.isObject()) {
            throw BadCompletionRequest.invalid("messages[" + i + "]", "invalid_type", "Invalid type for 'messages[" + i + "]': expected an object.");
        }
        JsonNode role = m.get("role");
        if (role == null || role.isNull()) {
            throw BadCompletionRequest.invalid("messages[" + i + "].role", "missing_required_parameter",
                    "Missing required parameter: 'messages[" + i + "].role'.");
        }
        if (!role.isTextual() || !ROLES.contains(role.asText())) {
            throw BadCompletionRequest.invalid("messages[" + i + "].role", "invalid_value",
                    "Invalid value for 'messages[" + i + "].role': supported values are " + String.join(", ", ROLES.stream().sorted().toList()) + ".");
        }
        return role.asText();
    }

    /** The message as the run will read it (the run's own check, named by the request's index). */
    private static ChatMessage read(JsonNode m, int i) {
        try {
            return LangChainMessages.fromJson(m, "messages[" + i + "]");
        } catch (InvalidInputException e) {
            throw BadCompletionRequest.invalid(e.field(), "invalid_value", e.getMessage());
        }
    }

    private static String string(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw BadCompletionRequest.invalid(field, "invalid_type", "Invalid type for '" + field + "': expected a string.");
        }
        return v.asText();
    }

    private static boolean flag(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw BadCompletionRequest.invalid(field, "invalid_type", "Invalid type for '" + field + "': expected a boolean.");
        }
        return v.asBoolean();
    }
}
