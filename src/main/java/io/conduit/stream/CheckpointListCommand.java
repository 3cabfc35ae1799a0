package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.StateSnapshot;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InputText;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.graphs.ThreadGraphs;
import io.smallrye.mutiny.Uni;

/**
 * {@code state.listCheckpoints {namespace?, limit?, before?}} → {@code {checkpoints:[{id, parent_id, timestamp, step,
 * source, node_name?, metadata}]}}, newest first, every branch (as {@code POST /threads/{id}/history}).
 */
final class CheckpointListCommand {

    private final ThreadGraphs graphs;

    CheckpointListCommand(ThreadGraphs graphs) {
        this.graphs = graphs;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params) {
        if (!StateGetCommand.rootNamespace(params)) {
            return Uni.createFrom().failure(new ProtocolException("no_such_namespace", "checkpoints are listed for the root namespace [] only"));
        }
        JsonNode l = params.get("limit");
        if (l != null && !l.isNull() && (!l.isIntegralNumber() || l.asInt() < 1 || l.asInt() > 1000)) {
            return Uni.createFrom().failure(ProtocolException.invalid("limit must be 1 to 1000"));
        }
        int limit = l == null || l.isNull() ? 10 : l.asInt();
        JsonNode b = params.get("before");
        if (b != null && !b.isNull() && !b.isTextual()) {
            return Uni.createFrom().failure(ProtocolException.invalid("before must be a checkpoint id"));
        }
        String before = b == null || b.isNull() ? null : b.asText();
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        ArrayNode list = out.putArray("checkpoints");
        if (!InputText.isId(threadId)) {
            return Uni.createFrom().item(out);
        }
        return graphs.of(threadId).map(RegisteredGraph::graph).chain(graph -> {
            Uni<Void> known = before == null ? Uni.createFrom().voidItem() : graph.state(threadId, before).map(s -> {
                if (s.isEmpty()) {
                    throw new ProtocolException("no_such_checkpoint", "Checkpoint " + before + " not found on thread " + threadId);
                }
                return null;
            });
            return known.chain(() -> graph.history(threadId, limit, before));
        }).map(snapshots -> {
            for (StateSnapshot s : snapshots) {
                ObjectNode c = list.addObject().put("id", s.checkpointId()).put("timestamp", s.createdAtMillis()).put("step", s.step())
                        .put("source", s.source().wire());
                if (s.parentCheckpointId() != null) {
                    c.put("parent_id", s.parentCheckpointId());
                }
                if (s.metadata().containsKey("node")) {
                    c.put("node_name", s.metadata().get("node"));
                }
                ObjectNode meta = c.putObject("metadata");
                s.metadata().forEach(meta::put);
            }
            return out;
        });
    }
}
