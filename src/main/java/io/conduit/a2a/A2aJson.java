package io.conduit.a2a;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.RunStatus;
import java.time.Instant;

/**
 * The A2A v0.3 objects this door writes, with their {@code kind}s: a task, its status, a status or artifact update,
 * an agent message of text. One place, so the stream, {@code message/send} and {@code tasks/get} agree on the shape.
 */
final class A2aJson {

    static final String SUBMITTED = "submitted";
    static final String WORKING = "working";
    static final String COMPLETED = "completed";
    static final String FAILED = "failed";
    static final String CANCELED = "canceled";
    static final String INPUT_REQUIRED = "input-required";

    private A2aJson() {
    }

    /** {@code {kind: task, id, contextId, status, artifacts: [], history: []}}. */
    static ObjectNode task(String taskId, String contextId, ObjectNode status) {
        ObjectNode t = JsonCodec.MAPPER.createObjectNode().put("kind", "task").put("id", taskId).put("contextId", contextId);
        t.set("status", status);
        t.putArray("artifacts");
        t.putArray("history");
        return t;
    }

    /** A task's status: its state, when it was reached, and the agent's message with it (or none). */
    static ObjectNode status(String state, long atMillis, ObjectNode message) {
        ObjectNode s = JsonCodec.MAPPER.createObjectNode().put("state", state).put("timestamp", Instant.ofEpochMilli(atMillis).toString());
        if (message != null) {
            s.set("message", message);
        }
        return s;
    }

    /** {@code {kind: status-update, taskId, contextId, status, final}}. */
    static ObjectNode statusUpdate(String taskId, String contextId, ObjectNode status, boolean isFinal) {
        ObjectNode u = JsonCodec.MAPPER.createObjectNode().put("kind", "status-update").put("taskId", taskId).put("contextId", contextId);
        u.set("status", status);
        return u.put("final", isFinal);
    }

    /** {@code {kind: artifact-update, taskId, contextId, artifact: {artifactId, name, parts: [text]}, append, lastChunk}}. */
    static ObjectNode artifactUpdate(String taskId, String contextId, String artifactId, String text, boolean append, boolean lastChunk) {
        ObjectNode u = JsonCodec.MAPPER.createObjectNode().put("kind", "artifact-update").put("taskId", taskId).put("contextId", contextId);
        u.set("artifact", artifact(artifactId, text));
        return u.put("append", append).put("lastChunk", lastChunk);
    }

    /** An artifact of one text part: an AI message of the run, its id the message's. */
    static ObjectNode artifact(String artifactId, String text) {
        ObjectNode a = JsonCodec.MAPPER.createObjectNode().put("artifactId", artifactId).put("name", "answer");
        parts(a, text);
        return a;
    }

    /** {@code {kind: message, role: agent, messageId, taskId, contextId, parts: [text]}}. */
    static ObjectNode agentMessage(String messageId, String taskId, String contextId, String text) {
        ObjectNode m = JsonCodec.MAPPER.createObjectNode().put("kind", "message").put("role", "agent").put("messageId", messageId)
                .put("taskId", taskId).put("contextId", contextId);
        parts(m, text);
        return m;
    }

    private static void parts(ObjectNode holder, String text) {
        ArrayNode parts = holder.putArray("parts");
        parts.addObject().put("kind", "text").put("text", text);
    }

    /** A run's record status as a task state, for a run whose events are no longer in the log. */
    static String state(RunStatus status) {
        return switch (status) {
            case PENDING -> SUBMITTED;
            case RUNNING -> WORKING;
            case SUCCESS -> COMPLETED;
            case ERROR, TIMEOUT -> FAILED;
            case INTERRUPTED -> CANCELED;
        };
    }
}
