package io.conduit.runs.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.conduit.runs.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * Chat messages in LangChain's JSON shape, which LangGraph clients read and send: {@code type} human/ai/tool/system/
 * remove, {@code tool_calls} with parsed {@code args}, {@code tool_call_id} and {@code status} on tool messages.
 * Input is accepted in that shape and in OpenAI's ({@code role}: user/assistant/tool/system).
 */
public final class LangChainMessages {

    private LangChainMessages() {
    }

    public static ObjectNode toJson(ChatMessage m) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        switch (m) {
            case UserMessage u -> {
                o.put("type", "human");
                if (u.images().isEmpty()) {
                    o.put("content", u.content());
                } else {
                    // LangChain's content blocks: the text, then each image as OpenAI's image_url part
                    var blocks = o.putArray("content");
                    if (!u.content().isEmpty()) {
                        blocks.addObject().put("type", "text").put("text", u.content());
                    }
                    u.images().forEach(url -> blocks.addObject().put("type", "image_url").putObject("image_url").put("url", url));
                }
            }
            case SystemMessage s -> o.put("type", "system").put("content", s.content());
            case ToolMessage t -> o.put("type", "tool").put("content", t.content()).put("tool_call_id", t.toolCallId())
                    .put("name", t.name()).put("status", t.error() ? "error" : "success");
            case AssistantMessage a -> {
                o.put("type", "ai").put("content", a.content());
                ArrayNode calls = o.putArray("tool_calls");
                for (ToolCall c : a.toolCalls()) {
                    calls.addObject().put("name", c.name()).put("id", c.id()).put("type", "tool_call").set("args", args(c.arguments()));
                }
                o.putArray("invalid_tool_calls");
                ObjectNode kwargs = o.putObject("additional_kwargs");
                if (a.reasoning() != null && !a.reasoning().isEmpty()) {
                    kwargs.put("reasoning_content", a.reasoning());
                }
                o.putObject("response_metadata");
                UsageJson.put(o, "usage_metadata", a.usage());
                if (a.stage() != null) {
                    o.put("name", a.stage());
                }
            }
            case RemoveMessage r -> o.put("type", "remove").put("content", "");
        }
        o.put("id", m.id());
        return o;
    }

    /** An AIMessageChunk of streamed text (the {@code messages} stream mode). */
    public static ObjectNode textChunk(String messageId, String text) {
        ObjectNode o = chunk(messageId);
        o.put("content", text);
        return o;
    }

    /**
     * An AIMessageChunk of streamed reasoning: no content, the fragment in {@code additional_kwargs.reasoning_content},
     * where LangChain's OpenAI-compatible models put a reasoning model's thinking (clients concatenate it by message).
     */
    public static ObjectNode reasoningChunk(String messageId, String text) {
        ObjectNode o = chunk(messageId);
        o.put("content", "");
        ((ObjectNode) o.get("additional_kwargs")).put("reasoning_content", text);
        return o;
    }

    /** An AIMessageChunk carrying a fragment of a tool call's arguments, merged by {@code index} on the client. */
    public static ObjectNode toolCallChunk(String messageId, int index, String callId, String name, String argsDelta) {
        ObjectNode o = chunk(messageId);
        o.put("content", "");
        ObjectNode c = o.withArray("tool_call_chunks").addObject();
        if (name != null) {
            c.put("name", name);
        } else {
            c.putNull("name");
        }
        c.put("args", argsDelta == null ? "" : argsDelta);
        if (callId != null) {
            c.put("id", callId);
        } else {
            c.putNull("id");
        }
        c.put("index", index).put("type", "tool_call_chunk");
        return o;
    }

    private static ObjectNode chunk(String messageId) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        o.put("type", "AIMessageChunk").put("id", messageId);
        o.putArray("tool_calls");
        o.putArray("tool_call_chunks");
        o.putArray("invalid_tool_calls");
        o.putObject("additional_kwargs");
        o.putObject("response_metadata");
        return o;
    }

    /** A tool call's argument text as JSON; text that is not JSON is kept as a string. */
    private static JsonNode args(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return JsonCodec.MAPPER.createObjectNode();
        }
        try {
            return JsonCodec.MAPPER.readTree(arguments);
        } catch (Exception e) {
            return JsonCodec.MAPPER.getNodeFactory().textNode(arguments);
        }
    }

    /**
     * A message from a client, in LangChain's or OpenAI's shape, or a bare string (a user message). Missing ids are
     * assigned. Throws {@link InvalidInputException} naming {@code field} when it is not a message.
     */
    public static ChatMessage fromJson(JsonNode n, String field) {
        if (n.isTextual()) {
            return new UserMessage(TimeOrderedIds.next(), n.asText());
        }
        if (!n.isObject()) {
            throw new InvalidInputException(field, "a message is an object with a type (or role) and content");
        }
        String kind = n.hasNonNull("type") ? n.get("type").asText() : n.hasNonNull("role") ? n.get("role").asText() : null;
        if (kind == null) {
            throw new InvalidInputException(field, "a message needs a type (human, ai, tool, system) or a role (user, assistant, tool, system)");
        }
        String id = n.hasNonNull("id") ? n.get("id").asText() : TimeOrderedIds.next();
        String content = content(n.get("content"), field);
        return switch (kind) {
            case "human", "user" -> new UserMessage(id, content, images(n.get("content"), field));
            case "system", "developer" -> new SystemMessage(id, content);
            case "ai", "assistant" -> new AssistantMessage(id, content, toolCalls(n), null, null);
            case "tool" -> {
                String callId = n.hasNonNull("tool_call_id") ? n.get("tool_call_id").asText() : null;
                if (callId == null) {
                    throw new InvalidInputException(field, "a tool message needs a tool_call_id");
                }
                yield new ToolMessage(id, callId, n.path("name").asText(""), content, "error".equals(n.path("status").asText()));
            }
            case "remove" -> new RemoveMessage(id);
            default -> throw new InvalidInputException(field, "unknown message type " + kind);
        };
    }

    /**
     * The images among content blocks: OpenAI's {@code {type: image_url, image_url: {url}}} (or the url as a string),
     * LangChain's {@code {type: image, url}} or {@code {type: image, source_type: base64, data, mime_type}} (made a
     * data URL). An image is an https or data URL; anything else is refused, naming the block.
     */
    static java.util.List<String> images(JsonNode c, String field) {
        java.util.List<String> out = new ArrayList<>();
        if (c == null || !c.isArray()) {
            return out;
        }
        int i = 0;
        for (JsonNode block : c) {
            String type = block.path("type").asText("");
            String url = null;
            if (type.equals("image_url")) {
                JsonNode u = block.get("image_url");
                url = u == null ? null : u.isTextual() ? u.asText() : u.path("url").asText(null);
            } else if (type.equals("image")) {
                url = block.hasNonNull("url") ? block.get("url").asText()
                        : block.hasNonNull("data") ? "data:" + block.path("mime_type").asText("image/png") + ";base64," + block.get("data").asText() : null;
            }
            if (type.equals("image_url") || type.equals("image")) {
                if (url == null || !(url.startsWith("https://") || url.startsWith("http://") || url.startsWith("data:image/"))) {
                    throw new InvalidInputException(field + ".content[" + i + "]", "an image is an http(s) URL or a data:image/... URL");
                }
                out.add(url);
            }
            i++;
        }
        return out;
    }

    /** Content as text: a string, or LangChain/OpenAI content blocks whose text parts are joined. */
    private static String content(JsonNode c, String field) {
        if (c == null || c.isNull()) {
            return "";
        }
        if (c.isTextual()) {
            return c.asText();
        }
        if (c.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode block : c) {
                if (block.isTextual()) {
                    sb.append(block.asText());
                } else if (block.hasNonNull("text")) {
                    sb.append(block.get("text").asText());
                }
            }
            return sb.toString();
        }
        throw new InvalidInputException(field + ".content", "content is a string or a list of content blocks");
    }

    private static List<ToolCall> toolCalls(JsonNode n) {
        List<ToolCall> out = new ArrayList<>();
        for (JsonNode c : n.path("tool_calls")) {
            JsonNode args = c.has("args") ? c.get("args") : c.path("function").path("arguments");
            String name = c.hasNonNull("name") ? c.get("name").asText() : c.path("function").path("name").asText("");
            out.add(new ToolCall(c.path("id").asText(TimeOrderedIds.next()), name, args.isTextual() ? args.asText() : args.toString()));
        }
        return out;
    }
}
