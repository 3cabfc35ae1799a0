package io.conduit.llm.simulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The parts of an OpenAI chat-completions request the simulator reads, checked as OpenAI checks them: a JSON object
 * with a non-empty {@code messages} array whose roles are known. Other fields (temperature, tool_choice...) are
 * accepted and ignored, as a scripted model has no use for them.
 */
record CompletionRequest(String model, List<Message> messages, List<String> tools, boolean stream, boolean includeUsage) {

    static final String DEFAULT_MODEL = "conduit-simulator";
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    /**
     * One message: its role, its text (text parts joined when the content is an array), the ids of the tools it calls
     * (an assistant's) and the id of the call it answers (a tool's, else null).
     */
    record Message(String role, String text, List<String> toolCallIds, String toolCallId) {

        Message {
            toolCallIds = List.copyOf(toolCallIds);
        }

        boolean callsTools() {
            return role.equals("assistant") && !toolCallIds.isEmpty();
        }
    }

    CompletionRequest {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }

    /**
     * A conversation already in this shape (the in-process model's), with the names of the tools offered, checked as a
     * request body is: every tool call answered before the next other message.
     */
    static CompletionRequest of(String model, List<Message> messages, List<String> tools) {
        answeredToolCalls(messages);
        return new CompletionRequest(model, messages, tools, true, true);
    }

    static CompletionRequest parse(String body) {
        JsonNode root;
        try {
            root = body == null || body.isBlank() ? null : SimulatorJson.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new InvalidCompletionRequest("invalid_json", null,
                    "We could not parse the JSON body of your request: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new InvalidCompletionRequest("invalid_json", null, "The request body must be a JSON object.");
        }
        JsonNode messages = root.get("messages");
        if (messages == null || messages.isNull()) {
            throw new InvalidCompletionRequest("missing_required_parameter", "messages", "Missing required parameter: 'messages'.");
        }
        if (!messages.isArray()) {
            throw new InvalidCompletionRequest("invalid_type", "messages", "Invalid type for 'messages': expected an array of messages.");
        }
        if (messages.isEmpty()) {
            throw new InvalidCompletionRequest("empty_array", "messages", "Invalid 'messages': empty array. Expected an array with at least 1 message.");
        }
        List<Message> parsed = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            parsed.add(message(messages.get(i), "messages[" + i + "]"));
        }
        answeredToolCalls(parsed);
        JsonNode tools = root.path("tools");
        if (!tools.isMissingNode() && !tools.isNull() && !tools.isArray()) {
            throw new InvalidCompletionRequest("invalid_type", "tools", "Invalid type for 'tools': expected an array of tools.");
        }
        JsonNode model = root.path("model");
        if (!model.isMissingNode() && !model.isNull() && !model.isTextual()) {
            throw new InvalidCompletionRequest("invalid_type", "model", "Invalid type for 'model': expected a string.");
        }
        List<String> toolNames = new ArrayList<>();
        tools.forEach(t -> toolNames.add(t.path("function").path("name").asText("")));
        return new CompletionRequest(model.isTextual() && !model.asText().isBlank() ? model.asText() : DEFAULT_MODEL, parsed,
                toolNames, flag(root, "stream", "stream"),
                flag(root.path("stream_options"), "include_usage", "stream_options.include_usage"));
    }

    /**
     * OpenAI's rule: an assistant message with tool calls is followed, before any other message, by a tool message
     * answering each of its calls (a conversation whose turn stopped between the calls and their results is refused).
     */
    private static void answeredToolCalls(List<Message> messages) {
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (!m.callsTools()) {
                continue;
            }
            Set<String> missing = new java.util.LinkedHashSet<>(m.toolCallIds());
            for (int j = i + 1; j < messages.size() && messages.get(j).role().equals("tool"); j++) {
                missing.remove(messages.get(j).toolCallId());
            }
            if (!missing.isEmpty()) {
                throw new InvalidCompletionRequest(null, "messages.[" + i + "].role", "An assistant message with 'tool_calls' must be followed "
                        + "by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                        + String.join(", ", missing));
            }
        }
    }

    private static Message message(JsonNode m, String param) {
        if (!m.isObject()) {
            throw new InvalidCompletionRequest("invalid_type", param, "Invalid type for '" + param + "': expected an object.");
        }
        JsonNode role = m.path("role");
        if (!role.isTextual()) {
            throw new InvalidCompletionRequest("missing_required_parameter", param + ".role", "Missing required parameter: '" + param + ".role'.");
        }
        if (!ROLES.contains(role.asText())) {
            throw new InvalidCompletionRequest("invalid_value", param + ".role", "Invalid value: '" + role.asText()
                    + "'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'.");
        }
        JsonNode toolCalls = m.path("tool_calls");
        if (!toolCalls.isMissingNode() && !toolCalls.isNull() && !toolCalls.isArray()) {
            throw new InvalidCompletionRequest("invalid_type", param + ".tool_calls", "Invalid type for '" + param + ".tool_calls': expected an array.");
        }
        if (role.asText().equals("tool") && !m.path("tool_call_id").isTextual()) {
            throw new InvalidCompletionRequest("missing_required_parameter", param + ".tool_call_id",
                    "Missing required parameter: '" + param + ".tool_call_id'.");
        }
        List<String> callIds = new ArrayList<>();
        if (role.asText().equals("assistant")) {
            toolCalls.forEach(c -> callIds.add(c.path("id").asText()));
        }
        String answers = role.asText().equals("tool") ? m.get("tool_call_id").asText() : null;
        return new Message(role.asText(), text(m.path("content"), param), callIds, answers);
    }

    /** A string, an array of content parts (their text joined), or nothing (an assistant message with tool calls). */
    private static String text(JsonNode content, String param) {
        if (content.isMissingNode() || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                sb.append(part.path("text").asText(""));
            }
            return sb.toString();
        }
        throw new InvalidCompletionRequest("invalid_type", param + ".content",
                "Invalid type for '" + param + ".content': expected a string or an array of content parts.");
    }

    private static boolean flag(JsonNode parent, String name, String param) {
        JsonNode v = parent.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new InvalidCompletionRequest("invalid_type", param, "Invalid type for '" + param + "': expected a boolean.");
        }
        return v.asBoolean();
    }

    /** Whether the request offers the model any tool. */
    boolean toolsOffered() {
        return !tools.isEmpty();
    }

    /** The index of the last user message, -1 if there is none. */
    int lastUserIndex() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return i;
            }
        }
        return -1;
    }

    /** The text of the last user message ("" if there is none). */
    String lastUserText() {
        int i = lastUserIndex();
        return i < 0 ? "" : messages.get(i).text();
    }

    /** Tool-call rounds already played since the last user message: the assistant messages with tool calls after it. */
    int roundsPlayed() {
        int played = 0;
        for (int i = lastUserIndex() + 1; i < messages.size(); i++) {
            if (messages.get(i).callsTools()) {
                played++;
            }
        }
        return played;
    }

    /** The prompt's size in simulator tokens: the words of every message. */
    int promptTokens() {
        int n = 0;
        for (Message m : messages) {
            n += TokenCount.of(m.text());
        }
        return n;
    }
}
