package io.conduit.stream;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.runs.InputText;
import io.conduit.runs.graphs.ThreadGraphs;
import io.smallrye.mutiny.Uni;

/**
 * {@code state.fork {checkpoint_id, input?, config?, assistant_id?}} → {@code {run_id, thread_id}}: a run from that
 * checkpoint on the same thread (a new branch; its first checkpoint's source is {@code fork}), on the thread's
 * assistant unless one is named.
 */
final class StateForkCommand {

    private final ProtocolRuns runs;
    private final ThreadGraphs graphs;

    StateForkCommand(ProtocolRuns runs, ThreadGraphs graphs) {
        this.runs = runs;
        this.graphs = graphs;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params, Principal caller) {
        JsonNode cp = params.get("checkpoint_id");
        if (cp == null || !cp.isTextual() || cp.asText().isEmpty()) {
            return Uni.createFrom().failure(ProtocolException.invalid("state.fork requires a checkpoint_id."));
        }
        if (!InputText.isId(threadId)) {
            return Uni.createFrom().failure(new ProtocolException("no_such_checkpoint", "Checkpoint " + cp.asText() + " not found"));
        }
        return graphs.of(threadId).chain(g -> g.graph().state(threadId, cp.asText())).chain(s -> {
            if (s.isEmpty()) {
                throw new ProtocolException("no_such_checkpoint", "Checkpoint " + cp.asText() + " not found on thread " + threadId);
            }
            Uni<String> assistant = params.path("assistant_id").isTextual() ? Uni.createFrom().item(params.get("assistant_id").asText())
                    : runs.latest(threadId).map(r -> r.assistantId());
            return assistant;
        }).chain(assistantId -> {
            ObjectNode body = ProtocolRuns.body(assistantId, params).put("checkpoint_id", cp.asText());
            if (params.hasNonNull("input")) {
                body.set("input", params.get("input"));
            }
            return runs.start(threadId, body, caller);
        }).map(r -> (JsonNode) ProtocolRuns.runId(r).put("thread_id", threadId));
    }
}
