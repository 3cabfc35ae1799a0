package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.runs.events.MessageBlocks;
import io.conduit.runs.wire.ProtocolJson;
import io.conduit.runs.wire.UsageJson;
import io.conduit.runs.wire.ToolCallArgs;

/**
 * The thread protocol's {@code messages} events, written as {@link MessageBlocks} tells a run's messages:
 * {@code message-start} (its id the AI message's id in state), {@code content-block-start}, {@code -delta} (each
 * carrying where its text lies, for a slow subscriber's merge), {@code -finish} (a tool call whole, as JSON
 * arguments or an {@code invalid_tool_call}), {@code message-finish} with the reason and the usage, or {@code error}.
 */
final class ProtocolMessages implements MessageBlocks.Sink<ProtocolFrames.Namespace> {

    private final ProtocolFrames frames;

    ProtocolMessages(ProtocolFrames frames) {
        this.frames = frames;
    }

    @Override
    public void messageStarted(ProtocolFrames.Namespace ns, String messageId) {
        StringBuilder d = frames.data().append("{\"event\":\"message-start\",\"role\":\"ai\",\"id\":");
        ProtocolJson.quote(d, messageId);
        frames.emit(ProtocolEvents.MESSAGES, ns, null, d.append('}'));
    }

    @Override
    public void blockStarted(ProtocolFrames.Namespace ns, MessageBlocks.Block b) {
        StringBuilder d = frames.data().append("{\"event\":\"content-block-start\",\"index\":").append(b.index()).append(",\"content\":");
        switch (b.kind()) {
            case TEXT -> d.append("{\"type\":\"text\",\"text\":\"\"}");
            case REASONING -> d.append("{\"type\":\"reasoning\",\"reasoning\":\"\"}");
            case TOOL_CALL -> {
                ProtocolJson.quote(d.append("{\"type\":\"tool_call_chunk\",\"id\":"), b.callId()).append(",\"name\":");
                ProtocolJson.quote(d, b.name()).append(",\"args\":\"\"}");
            }
        }
        frames.emit(ProtocolEvents.MESSAGES, ns, null, d.append('}'));
    }

    @Override
    public void delta(ProtocolFrames.Namespace ns, MessageBlocks.Block b, String text) {
        StringBuilder d = frames.data().append("{\"event\":\"content-block-delta\",\"index\":").append(b.index()).append(switch (b.kind()) {
            case TEXT -> ",\"delta\":{\"type\":\"text-delta\",\"text\":";
            case REASONING -> ",\"delta\":{\"type\":\"reasoning-delta\",\"reasoning\":";
            case TOOL_CALL -> ",\"delta\":{\"type\":\"tool-call-delta\",\"args\":";
        });
        frames.emitDelta(ns, b, d, text);
    }

    /** A tool call's arguments are the final message's when it is known, else what streamed. */
    @Override
    public void blockFinished(ProtocolFrames.Namespace ns, MessageBlocks.Block b, AssistantMessage done) {
        StringBuilder d = frames.data().append("{\"event\":\"content-block-finish\",\"index\":").append(b.index()).append(",\"content\":");
        switch (b.kind()) {
            case TEXT -> ProtocolJson.quote(d.append("{\"type\":\"text\",\"text\":"), b.text());
            case REASONING -> ProtocolJson.quote(d.append("{\"type\":\"reasoning\",\"reasoning\":"), b.text());
            case TOOL_CALL -> {
                String id = b.callId();
                String name = b.name();
                String argsText = b.text();
                ToolCall whole = done != null && b.call() < done.toolCalls().size() ? done.toolCalls().get(b.call()) : null;
                if (whole != null) {
                    id = whole.id();
                    name = whole.name();
                    argsText = whole.arguments();
                }
                JsonNode args = ToolCallArgs.parse(argsText);
                if (args != null) {
                    ProtocolJson.quote(d.append("{\"type\":\"tool_call\",\"id\":"), id).append(",\"name\":");
                    ProtocolJson.quote(d, name).append(",\"args\":").append(args.toString());
                } else {
                    ProtocolJson.quote(d.append("{\"type\":\"invalid_tool_call\",\"id\":"), id).append(",\"name\":");
                    ProtocolJson.quote(d, name).append(",\"args\":");
                    ProtocolJson.quote(d, argsText).append(",\"error\":\"the arguments are not JSON\"");
                }
            }
        }
        frames.emit(ProtocolEvents.MESSAGES, ns, null, d.append("}}"));
    }

    @Override
    public void messageFinished(ProtocolFrames.Namespace ns, String messageId, boolean toolCalls, AssistantMessage done) {
        StringBuilder d = frames.data().append("{\"event\":\"message-finish\",\"reason\":\"").append(toolCalls ? "tool_calls" : "stop").append('"');
        frames.emit(ProtocolEvents.MESSAGES, ns, null, UsageJson.append(d, "usage", done == null ? null : done.usage()).append('}'));
    }

    @Override
    public void messageFailed(ProtocolFrames.Namespace ns, String messageId, MessageBlocks.Block open, String error) {
        StringBuilder d = frames.data().append("{\"event\":\"error\",\"message\":");
        ProtocolJson.quote(d, error);
        frames.emit(ProtocolEvents.MESSAGES, ns, null, d.append('}'));
    }

    // ---- namespaces
}
