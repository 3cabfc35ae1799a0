package io.conduit.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.RunTranslator;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A run as A2A's task events (v0.3), translated from its log entries, root graph only; the task is the run, its
 * context the thread. Each frame's data is one JSON-RPC {@code result}, framed per request ({@link A2aStream}: the
 * request's id goes around it):
 * <ul>
 * <li>the task, {@code submitted}, then a {@code working} status update, when the run begins;</li>
 * <li>each AI message's text as {@code artifact-update}s (the artifact's id is the message's): its tokens as they
 * stream ({@code append} after the first), or whole when its node wrote it without streaming;</li>
 * <li>the end, a final status update: {@code completed} with the last AI message as the status message,
 * {@code input-required} with an interrupt's question (the next message on the context answers it), {@code failed}
 * with why, {@code canceled} for a stopped run.</li>
 * </ul>
 * Tool calls and results are not said: the tools are the server's. Deterministic (times are the entries'), so a
 * replay translates the run again into the same frames.
 */
final class A2aEvents implements RunTranslator {

    /** A task or a status update on the way. */
    static final String STATUS = "status";
    /** An artifact update. */
    static final String ARTIFACT = "artifact";
    /** The final {@code input-required} status update: kept for a replay, as the protocol's question is. */
    static final String ASKED = "input.requested";
    /** The final status update of any other end: kept for a replay. */
    static final String END = "end";

    private final String taskId;
    private final String contextId;
    private final Consumer<RunEvent> sink;
    private long seq;
    /** The messages that streamed: written whole by their node afterwards, they are not said again. */
    private final Set<String> streamed = new HashSet<>();
    private String lastMessage;
    private final StringBuilder lastText = new StringBuilder();
    private String error;
    private boolean ended;

    A2aEvents(RunNotice.Began began, Consumer<RunEvent> sink) {
        this.taskId = began.run().runId();
        this.contextId = began.run().threadId();
        this.seq = began.firstSeq();
        this.sink = sink;
    }

    @Override
    public void on(Object entry, long atMillis) {
        if (ended) {
            return;
        }
        switch (entry) {
            case RunNotice.Began b -> {
                emit(STATUS, A2aJson.task(taskId, contextId, A2aJson.status(A2aJson.SUBMITTED, atMillis, null)));
                if (b.executed()) {
                    emit(STATUS, A2aJson.statusUpdate(taskId, contextId, A2aJson.status(A2aJson.WORKING, atMillis, null), false));
                } else {
                    end(A2aJson.CANCELED, atMillis, "the run was stopped before it began");
                }
            }
            case GraphEvent e when e.tag().ns().isEmpty() -> on(e, atMillis);
            case RunNotice.Said said -> error = said.message() == null ? said.code() : said.message();
            case RunNotice.Ended e -> ended(e, atMillis);
            default -> {
                // a subgraph's events, Answered: nothing of their own in A2A
            }
        }
    }

    private void on(GraphEvent e, long atMillis) {
        switch (e) {
            case GraphEvent.Token t -> {
                streamed.add(t.messageId());
                text(t.messageId(), t.text());
            }
            case GraphEvent.TaskFinished t -> written(t.update());
            case GraphEvent.Interrupted i -> {
                for (Interrupt x : i.interrupts()) {
                    if (x.answerable()) {
                        ended = true;
                        emit(ASKED, A2aJson.statusUpdate(taskId, contextId, A2aJson.status(A2aJson.INPUT_REQUIRED, atMillis,
                                asking(x, taskId, contextId)), true));
                        return;
                    }
                }
            }
            case GraphEvent.RunFailed f -> error = f.message();
            default -> {
            }
        }
    }

    /** The AI messages a node wrote without streaming them, each an artifact of its own. */
    private void written(Update update) {
        for (Update.Write w : update.writes()) {
            if (w.value() instanceof AssistantMessage m && !streamed.contains(m.id()) && !m.content().isEmpty()) {
                streamed.add(m.id());
                text(m.id(), m.content());
            }
        }
    }

    private void text(String messageId, String text) {
        if (text.isEmpty()) {
            return;
        }
        boolean append = messageId.equals(lastMessage);
        if (!append) {
            lastMessage = messageId;
            lastText.setLength(0);
        }
        lastText.append(text);
        emit(ARTIFACT, A2aJson.artifactUpdate(taskId, contextId, messageId, text, append, false));
    }

    private void ended(RunNotice.Ended e, long atMillis) {
        RunStatus s = e.status();
        switch (s) {
            case SUCCESS -> end(A2aJson.COMPLETED, atMillis, lastMessage == null ? null : lastText.toString());
            case ERROR, TIMEOUT -> end(A2aJson.FAILED, atMillis, e.error() != null ? e.error() : error != null ? error : "the run failed");
            default -> end(A2aJson.CANCELED, atMillis, error != null ? error : "the run was stopped");
        }
    }

    /** The final status update; {@code text}, the status message's (none when null). */
    private void end(String state, long atMillis, String text) {
        ended = true;
        String messageId = A2aJson.COMPLETED.equals(state) && lastMessage != null ? lastMessage : taskId + "-" + state;
        ObjectNode message = text == null ? null : A2aJson.agentMessage(messageId, taskId, contextId, text);
        emit(END, A2aJson.statusUpdate(taskId, contextId, A2aJson.status(state, atMillis, message), true));
    }

    private void emit(String mode, ObjectNode result) {
        sink.accept(new RunEvent(seq++, taskId, mode, "", result.toString()));
    }

    /** The agent's message that asks an interrupt's question: the live stream's, and a task's read after retention. */
    static ObjectNode asking(Interrupt x, String taskId, String contextId) {
        return A2aJson.agentMessage("interrupt-" + x.id(), taskId, contextId, question(JsonCodec.MAPPER.valueToTree(x.value())));
    }

    /**
     * An interrupt's payload as a question to read: the payload when it is text, else its {@code question} or
     * {@code message}, else its JSON.
     */
    static String question(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return "";
        }
        if (payload.isTextual()) {
            return payload.asText();
        }
        for (String field : new String[]{"question", "question_text", "message"}) {
            if (payload.path(field).isTextual()) {
                return payload.get(field).asText();
            }
        }
        return payload.toString();
    }
}
