package io.conduit.agui;

import static io.conduit.agui.AgUiFrames.event;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.runs.events.MessageBlocks;
import io.conduit.runs.events.RunEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A run's AI messages in AG-UI, as {@link MessageBlocks} tells them (the thread protocol's view of them): a text
 * block → TEXT_MESSAGE_START/CONTENT/END under the AI message's id; a reasoning block → REASONING_START,
 * REASONING_MESSAGE_START/CONTENT/END, REASONING_END under its own id; a tool-call block → TOOL_CALL_START/ARGS (the
 * argument deltas as streamed)/END. A message that ends unfinished closes its open block.
 */
final class AgUiMessageEvents implements MessageBlocks.Sink<String> {

    private final AgUiFrames frames;
    /** The delta frame of each open block, cut once: its tokens share it. */
    private final Map<MessageBlocks.Block, RunEvent.TextFrame> deltas = new HashMap<>();
    /** The tool calls this run streamed: their results are told. */
    private final Set<String> calls = new HashSet<>();

    AgUiMessageEvents(AgUiFrames frames) {
        this.frames = frames;
    }

    /** Whether the run streamed this tool call (so its result is told). */
    boolean streamed(String toolCallId) {
        return calls.contains(toolCallId);
    }

    @Override
    public void messageStarted(String ns, String messageId) {
        // AG-UI opens a message with its first block
    }

    @Override
    public void blockStarted(String ns, MessageBlocks.Block b) {
        String id = b.messageId();
        switch (b.kind()) {
            case TEXT -> {
                frames.emit(event("TEXT_MESSAGE_START").put("messageId", id).put("role", "assistant"));
                deltas.put(b, AgUiFrames.cut(event("TEXT_MESSAGE_CONTENT").put("messageId", id)));
            }
            case REASONING -> {
                frames.emit(event("REASONING_START").put("messageId", reasoningId(b)));
                frames.emit(event("REASONING_MESSAGE_START").put("messageId", reasoningId(b)).put("role", "reasoning"));
                deltas.put(b, AgUiFrames.cut(event("REASONING_MESSAGE_CONTENT").put("messageId", reasoningId(b))));
            }
            case TOOL_CALL -> {
                calls.add(toolCallId(b));
                frames.emit(event("TOOL_CALL_START").put("toolCallId", toolCallId(b)).put("toolCallName", b.name() != null ? b.name() : "tool")
                        .put("parentMessageId", id));
                deltas.put(b, AgUiFrames.cut(event("TOOL_CALL_ARGS").put("toolCallId", toolCallId(b))));
            }
        }
    }

    @Override
    public void delta(String ns, MessageBlocks.Block b, String text) {
        String type = switch (b.kind()) {
            case TEXT -> "TEXT_MESSAGE_CONTENT";
            case REASONING -> "REASONING_MESSAGE_CONTENT";
            case TOOL_CALL -> "TOOL_CALL_ARGS";
        };
        frames.delta(type, b.key(), deltas.get(b), text);
    }

    @Override
    public void blockFinished(String ns, MessageBlocks.Block b, AssistantMessage done) {
        close(b);
    }

    @Override
    public void messageFinished(String ns, String messageId, boolean toolCalls, AssistantMessage done) {
        // its blocks said it all
    }

    @Override
    public void messageFailed(String ns, String messageId, MessageBlocks.Block open, String error) {
        if (open != null) {
            close(open);
        }
    }

    /** The block's end: what a run that ends with it open closes too. */
    void close(MessageBlocks.Block b) {
        deltas.remove(b);
        switch (b.kind()) {
            case TEXT -> frames.emit(event("TEXT_MESSAGE_END").put("messageId", b.messageId()));
            case REASONING -> {
                frames.emit(event("REASONING_MESSAGE_END").put("messageId", reasoningId(b)));
                frames.emit(event("REASONING_END").put("messageId", reasoningId(b)));
            }
            case TOOL_CALL -> frames.emit(event("TOOL_CALL_END").put("toolCallId", toolCallId(b)));
        }
    }

    /** A reasoning message's own id: the AI message's id is its text's. */
    private static String reasoningId(MessageBlocks.Block b) {
        return b.messageId() + "-reasoning";
    }

    /** The call's id, or one made from its message's when the model gave none. */
    private static String toolCallId(MessageBlocks.Block b) {
        return b.callId() != null ? b.callId() : b.messageId() + "-call";
    }
}
