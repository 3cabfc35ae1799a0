package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.wire.ToolCallArgs;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The AI messages of one run as streamed so far, for the {@code messages} stream mode's {@code messages/partial}
 * events, each of which carries the whole message up to its latest chunk (LangGraph's servers concatenate the chunks
 * of one id, as LangChain's {@code AIMessageChunk} does): its text, its reasoning, its tool calls merged by index. A
 * message is forgotten once it is whole ({@link #done}).
 */
final class PartialMessages {

    private final Map<String, Partial> byId = new HashMap<>();

    /** Whether {@code messageId} is new here (its {@code messages/metadata} is then due). */
    boolean start(String messageId) {
        if (byId.containsKey(messageId)) {
            return false;
        }
        byId.put(messageId, new Partial());
        return true;
    }

    void text(String messageId, String text) {
        byId.get(messageId).text.append(text);
    }

    void reasoning(String messageId, String text) {
        byId.get(messageId).reasoning.append(text);
    }

    void toolCall(String messageId, int index, String callId, String name, String argsDelta) {
        Call c = byId.get(messageId).calls.computeIfAbsent(index, i -> new Call());
        if (c.id == null) {
            c.id = callId;
        }
        if (c.name == null) {
            c.name = name;
        }
        if (argsDelta != null) {
            c.args.append(argsDelta);
        }
    }

    /** Whether the message was streamed here (and not yet done). */
    boolean streaming(String messageId) {
        return byId.containsKey(messageId);
    }

    void done(String messageId) {
        byId.remove(messageId);
    }

    /**
     * The message so far, as LangChain's message of the concatenated chunks: {@code type} ai, its text, its tool calls
     * with their arguments parsed once they are whole JSON (until then in {@code invalid_tool_calls}, as text).
     */
    ObjectNode json(String messageId) {
        Partial p = byId.get(messageId);
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        o.put("type", "ai").put("content", p.text.toString());
        ArrayNode calls = o.putArray("tool_calls");
        ArrayNode invalid = o.putArray("invalid_tool_calls");
        for (Call c : p.calls.values()) {
            JsonNode args = c.parsedArgs();
            if (args != null && args.isObject()) {
                calls.addObject().put("name", c.name).put("id", c.id).put("type", "tool_call").set("args", args);
            } else {
                invalid.addObject().put("name", c.name).put("id", c.id).put("args", c.args.toString()).putNull("error")
                        .put("type", "invalid_tool_call");
            }
        }
        ObjectNode kwargs = o.putObject("additional_kwargs");
        if (!p.reasoning.isEmpty()) {
            kwargs.put("reasoning_content", p.reasoning.toString());
        }
        o.putObject("response_metadata");
        o.put("id", messageId);
        return o;
    }

    private static final class Partial {
        final StringBuilder text = new StringBuilder();
        final StringBuilder reasoning = new StringBuilder();
        /** By index, in index order: the order the model gave them. */
        final Map<Integer, Call> calls = new TreeMap<>();
    }

    private static final class Call {
        String id;
        String name;
        final StringBuilder args = new StringBuilder();
        private int parsedLength = -1;
        private JsonNode parsed;

        /**
         * The arguments parsed, or null while they are no whole object. Parsed only when they may have become one (they
         * end in a brace) and have grown: a long argument streamed in thousands of chunks is not parsed whole each time.
         */
        JsonNode parsedArgs() {
            if (parsedLength != args.length()) {
                parsedLength = args.length();
                int end = parsedLength - 1;
                while (end >= 0 && Character.isWhitespace(args.charAt(end))) {
                    end--;
                }
                parsed = end < 0 || args.charAt(end) == '}' ? ToolCallArgs.parse(args.toString()) : null; // none yet: {}
            }
            return parsed;
        }
    }
}
