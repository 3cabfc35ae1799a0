package io.conduit.aisdk;

import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.RunTranslator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A run as the Vercel AI SDK's UI message stream (v1), the parts {@code useChat} reads, translated from the run's log
 * entries (the engine's events and the worker's notices); the run is one assistant UI message, its id the run's:
 * <ul>
 * <li>{@code start} first; the AI messages of the root graph's tasks as steps of text, reasoning and tool-input parts
 * ({@link UiContentParts}, on the thread protocol's message rules: {@link TaskMessages});</li>
 * <li>the server's tool results as {@code tool-output-available} / {@code tool-output-error} of the calls the
 * client was shown;</li>
 * <li>the root graph's custom events as {@code data-<name>} parts; an interrupt as {@code data-interrupt}
 * {@code {id, value}};</li>
 * <li>the end: {@code finish} ({@code stop}; {@code other} after an interrupt), {@code error} then {@code finish}
 * ({@code error}) for a failed run, {@code abort} for a stopped one (one that ended before it began too), then
 * {@code [DONE]}; nothing after it.</li>
 * </ul>
 * Deterministic (no clock, no randomness), so a replay translates the run again into the same frames.
 */
final class UiMessageStream implements RunTranslator {

    private static final String TOOL = "tool";

    private final UiMessageParts out;
    private final UiContentParts content;
    private final TaskMessages messages;
    /** The tool call id of each running tool (the child's id when the call has none). */
    private final Map<String, String> callOfChild = new HashMap<>();
    private boolean asked;
    private boolean ended;

    UiMessageStream(RunNotice.Began began, Consumer<RunEvent> sink) {
        this.out = new UiMessageParts(began.run().runId(), began.firstSeq(), sink);
        this.content = new UiContentParts(out);
        this.messages = new TaskMessages(content);
    }

    @Override
    public void on(Object entry, long atMillis) {
        if (ended) {
            return;
        }
        switch (entry) {
            case GraphEvent e -> on(e);
            case RunNotice.Began b -> {
                out.start();
                if (!b.executed()) {
                    end("abort", null); // stopped before it began: nothing else will be said of it
                }
            }
            case RunNotice.Ended e -> ended(e.status(), e.error());
            default -> {
                // Answered, Said: nothing of their own in a UI message
            }
        }
        out.flush(UiMessageParts.PART);
    }

    private void on(GraphEvent e) {
        messages.on(e);
        switch (e) {
            case GraphEvent.ChildStarted c when TOOL.equals(c.kind()) ->
                    callOfChild.put(c.childId(), c.callId() != null ? c.callId() : c.childId());
            case GraphEvent.ChildEnded c when TOOL.equals(c.kind()) -> toolEnded(c);
            case GraphEvent.Custom c when c.tag().ns().isEmpty() -> {
                out.part("data-" + (c.name() == null || c.name().isEmpty() ? "custom" : c.name()));
                out.raw("data", json(c.payload()));
                out.close();
            }
            case GraphEvent.Interrupted i -> interrupted(i);
            case GraphEvent.RunFailed f -> messages.stopTasks(f.message());
            default -> {
            }
        }
    }

    /** A server tool's result, for a call the client was shown. */
    private void toolEnded(GraphEvent.ChildEnded c) {
        String callId = callOfChild.remove(c.childId());
        String id = callId != null ? callId : c.childId();
        if (!UiContentParts.shown(TaskMessages.namespace(c.tag())) || !content.announced(id)) {
            return;
        }
        if (c.error() == null) {
            out.part("tool-output-available");
            out.field("toolCallId", id);
            out.raw("output", json(c.output())).append(",\"providerExecuted\":true");
        } else {
            out.part("tool-output-error");
            out.field("toolCallId", id);
            out.field("errorText", c.error()).append(",\"providerExecuted\":true");
        }
        out.close();
    }

    /** The run stops at interrupts: its open tasks' messages end, and each question is a {@code data-interrupt} part. */
    private void interrupted(GraphEvent.Interrupted i) {
        messages.stopTasks(null);
        for (Interrupt x : i.interrupts()) {
            if (!x.answerable()) {
                continue; // a breakpoint asks nothing: the run is continued, not answered
            }
            asked = true;
            out.flush(UiMessageParts.PART);
            out.part("data-interrupt");
            out.field("id", x.id());
            StringBuilder data = UiMessageParts.quote(new StringBuilder("{\"id\":"), x.id()).append(",\"value\":").append(json(x.value()));
            out.raw("data", data.append('}').toString());
            out.close();
            out.flush(UiMessageParts.ASKED);
        }
    }

    /** The run's recorded end: its open tasks' messages fail, then the stream ends as the run did. */
    private void ended(RunStatus status, String error) {
        boolean failed = status == RunStatus.ERROR || status == RunStatus.TIMEOUT;
        messages.stopTasks(failed ? error : "the run was stopped");
        switch (status) {
            case SUCCESS -> end("stop", null);
            case ERROR, TIMEOUT -> end("error", error == null ? "the run failed" : error);
            default -> end(asked ? "other" : "abort", null);
        }
    }

    /** {@code how}: a finish reason, or {@code abort}; {@code error}: the run's failure, said before the finish. */
    private void end(String how, String error) {
        content.closeAll(error == null ? "the run stopped" : error);
        out.flush(UiMessageParts.PART);
        if (error != null) {
            out.part("error");
            out.field("errorText", error);
            out.close();
        }
        if ("abort".equals(how)) {
            out.part("abort");
            out.field("reason", "the run was cancelled");
        } else {
            out.part("finish");
            out.field("finishReason", how);
        }
        out.close();
        out.done();
        out.flush(UiMessageParts.END);
        ended = true;
    }

    /** A value as single-line JSON, as the protocol writes payloads (a tree as it is, anything else through Jackson). */
    static String json(Object value) {
        if (value instanceof com.fasterxml.jackson.databind.JsonNode n) {
            return n.toString();
        }
        try {
            return JsonCodec.MAPPER.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return UiMessageParts.quote(new StringBuilder(), String.valueOf(value)).toString();
        }
    }
}
