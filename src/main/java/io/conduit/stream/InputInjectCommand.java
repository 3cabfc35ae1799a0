package io.conduit.stream;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;

/**
 * {@code input.inject {namespace, message:{role: user|system, content, name?}}}: appends the message by queueing a
 * run whose input is that message, on the thread's assistant, with multitask strategy {@code enqueue}: it starts at
 * once on an idle thread and after the current run on a busy one; it never changes a run in flight (a run's input is
 * fixed when it starts). Result {@code {run_id}}.
 */
final class InputInjectCommand {

    private final ProtocolRuns runs;

    InputInjectCommand(ProtocolRuns runs) {
        this.runs = runs;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params, Principal caller) {
        JsonNode ns = params.get("namespace");
        if (ns != null && !ns.isNull() && (!ns.isArray() || !ns.isEmpty())) {
            return Uni.createFrom().failure(new ProtocolException("no_such_namespace", "input.inject appends to the root namespace [] only"));
        }
        JsonNode m = params.get("message");
        if (m == null || !m.isObject()) {
            return Uni.createFrom().failure(ProtocolException.invalid("input.inject requires a message {role, content, name?}"));
        }
        String role = m.path("role").asText("");
        if (!role.equals("user") && !role.equals("system")) {
            return Uni.createFrom().failure(ProtocolException.invalid("message.role must be user or system"));
        }
        if (!m.path("content").isTextual()) {
            return Uni.createFrom().failure(ProtocolException.invalid("message.content must be a string"));
        }
        return runs.latest(threadId).chain(last -> {
            ObjectNode body = ProtocolRuns.body(last.assistantId(), params).put("multitask_strategy", "enqueue");
            ObjectNode message = body.putObject("input").putArray("messages").addObject().put("role", role).put("content", m.get("content").asText());
            if (m.hasNonNull("name")) {
                message.set("name", m.get("name"));
            }
            return runs.start(threadId, body, caller);
        }).map(ProtocolRuns::runId);
    }
}
