package io.conduit.aisdk;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.runs.events.MessageBlocks;
import io.conduit.runs.wire.ToolCallArgs;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The AI messages of a run's root graph and its tasks as UI message parts: each model call a step
 * ({@code start-step} … {@code finish-step}, a step lasting until the next model call starts after every message
 * ended), text and reasoning blocks as {@code text-*} and {@code reasoning-*} parts (their id {@code <message id>-<block
 * index>}), tool calls as {@code tool-input-*} parts with {@code providerExecuted: true} (the server runs them). A tool
 * call whose id is not known yet holds its argument deltas until it is. Subgraph messages are not shown.
 */
final class UiContentParts implements MessageBlocks.Sink<String> {

    /** The UI's part of a content block: the part it became, or for a tool call, the call. */
    private static final class Part {
        final MessageBlocks.Kind kind;
        final String partId;
        String callId;
        final String name;
        /** A tool call whose id is not known yet: its argument deltas wait for it. */
        StringBuilder waiting;

        Part(MessageBlocks.Kind kind, String partId, String callId, String name) {
            this.kind = kind;
            this.partId = partId;
            this.callId = callId;
            this.name = name;
        }
    }

    /** A message shown in a namespace, and its open part. */
    private static final class Message {
        final String id;
        Part part;

        Message(String id) {
            this.id = id;
        }
    }

    private final UiMessageParts out;
    private final Map<String, Message> open = new LinkedHashMap<>();
    private final Set<String> calls = new HashSet<>();
    private boolean stepOpen;

    UiContentParts(UiMessageParts out) {
        this.out = out;
    }

    /** The namespaces shown: the root graph and its tasks, not subgraphs. */
    static boolean shown(String ns) {
        return ns.indexOf('|') < 0;
    }

    /** Whether the client was shown a tool call of this id (its outputs are shown then). */
    boolean announced(String callId) {
        return calls.contains(callId);
    }

    @Override
    public void messageStarted(String ns, String messageId) {
        if (!shown(ns)) {
            return;
        }
        if (stepOpen && open.isEmpty()) {
            out.empty("finish-step");
            stepOpen = false;
        }
        if (!stepOpen) {
            out.empty("start-step");
            stepOpen = true;
        }
        open.put(ns, new Message(messageId));
    }

    @Override
    public void blockStarted(String ns, MessageBlocks.Block block) {
        Message m = open.get(ns);
        if (m == null) {
            return;
        }
        String partId = m.id + "-" + block.index();
        switch (block.kind()) {
            case TEXT -> {
                m.part = new Part(block.kind(), partId, null, null);
                endPart("text-start", partId);
            }
            case REASONING -> {
                m.part = new Part(block.kind(), partId, null, null);
                endPart("reasoning-start", partId);
            }
            case TOOL_CALL -> {
                Part p = new Part(block.kind(), partId, block.callId(), block.name());
                m.part = p;
                if (p.callId != null) {
                    toolInputStart(p);
                } else {
                    p.waiting = new StringBuilder();
                }
            }
        }
    }

    @Override
    public void delta(String ns, MessageBlocks.Block block, String text) {
        Message m = open.get(ns);
        Part p = m == null ? null : m.part;
        if (p == null) {
            return;
        }
        switch (p.kind) {
            case TEXT -> out.delta("text-delta", "id", p.partId, "delta", p.partId, text);
            case REASONING -> out.delta("reasoning-delta", "id", p.partId, "delta", p.partId, text);
            case TOOL_CALL -> {
                if (p.waiting != null) {
                    p.waiting.append(text);
                } else {
                    out.delta("tool-input-delta", "toolCallId", p.callId, "inputTextDelta", "tool:" + p.callId, text);
                }
            }
        }
    }

    @Override
    public void blockFinished(String ns, MessageBlocks.Block block, AssistantMessage done) {
        Message m = open.get(ns);
        Part p = m == null ? null : m.part;
        if (p == null) {
            return;
        }
        m.part = null;
        switch (p.kind) {
            case TEXT -> endPart("text-end", p.partId);
            case REASONING -> endPart("reasoning-end", p.partId);
            case TOOL_CALL -> toolInput(p, block, done);
        }
    }

    /**
     * A tool call's input, once its block finished (the final message's call when it is known, else what streamed):
     * announced first if its id came only now, then its held deltas.
     */
    private void toolInput(Part p, MessageBlocks.Block block, AssistantMessage done) {
        ToolCall whole = done != null && block.call() < done.toolCalls().size() ? done.toolCalls().get(block.call()) : null;
        String args = whole != null ? whole.arguments() : block.text();
        String id = whole != null && whole.id() != null ? whole.id() : p.callId;
        if (id == null) {
            return; // a call with no id cannot be named to the client
        }
        if (!id.equals(p.callId)) {
            p.callId = id;
            toolInputStart(p);
        }
        if (p.waiting != null) {
            out.delta("tool-input-delta", "toolCallId", id, "inputTextDelta", "tool:" + id, p.waiting.toString());
        }
        JsonNode input = ToolCallArgs.parse(args);
        if (input != null) {
            out.part("tool-input-available");
            out.field("toolCallId", id);
            out.field("toolName", p.name);
            out.raw("input", input.toString()).append(",\"providerExecuted\":true");
        } else {
            out.part("tool-input-error");
            out.field("toolCallId", id);
            out.field("toolName", p.name);
            out.field("input", args).append(",\"providerExecuted\":true");
            out.field("errorText", "the arguments are not JSON");
        }
        out.close();
    }

    private void toolInputStart(Part p) {
        calls.add(p.callId);
        out.part("tool-input-start");
        out.field("toolCallId", p.callId);
        out.field("toolName", p.name).append(",\"providerExecuted\":true");
        out.close();
    }

    @Override
    public void messageFinished(String ns, String messageId, boolean toolCalls, AssistantMessage done) {
        end(ns, null);
    }

    @Override
    public void messageFailed(String ns, String messageId, MessageBlocks.Block open, String error) {
        end(ns, error);
    }

    /** Every message still shown ends ({@code why}: the run's end), then the step. */
    void closeAll(String why) {
        for (String ns : List.copyOf(open.keySet())) {
            end(ns, why);
        }
        if (stepOpen) {
            out.empty("finish-step");
            stepOpen = false;
        }
    }

    /** The message ends; {@code error}: why it ended unfinished (its open part ends with it). */
    private void end(String ns, String error) {
        Message m = open.remove(ns);
        Part p = m == null ? null : m.part;
        if (p == null) {
            return;
        }
        switch (p.kind) {
            case TEXT -> endPart("text-end", p.partId);
            case REASONING -> endPart("reasoning-end", p.partId);
            case TOOL_CALL -> {
                if (p.callId != null && p.waiting == null) {
                    out.part("tool-input-error");
                    out.field("toolCallId", p.callId);
                    out.field("toolName", p.name).append(",\"input\":null,\"providerExecuted\":true");
                    out.field("errorText", error == null ? "the tool call was not finished" : error);
                    out.close();
                }
            }
        }
    }

    private void endPart(String type, String id) {
        out.part(type);
        out.field("id", id);
        out.close();
    }
}
