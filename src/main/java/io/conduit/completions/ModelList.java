package io.conduit.completions;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Assistant;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.RegisteredGraph;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code GET /v1/models}: every assistant of a graph that holds chat messages, as a model. Each served graph twice, by its graph id ({@code agent}) and by
 * its system assistant's id (both pick it as {@code model}), then the assistants created through the API, by id.
 * {@code owned_by} is the graph.
 */
final class ModelList {

    /** The assistants created through the API that are listed: the newest, up to this many. */
    static final int MAX_STORED = 1000;

    private ModelList() {
    }

    static Uni<String> of(Assistants assistants, io.conduit.auth.Principal caller) {
        return assistants.store().search(null, null, caller.narrow(java.util.Map.of()), MAX_STORED, 0, "created_at", "desc").map(stored -> {
            ObjectNode out = JsonCodec.MAPPER.createObjectNode().put("object", "list");
            ArrayNode data = out.putArray("data");
            Set<String> seen = new LinkedHashSet<>();
            for (Assistant a : assistants.system()) {
                if (chats(assistants, a)) {
                    add(data, seen, a.graphId(), a);
                    add(data, seen, a.assistantId(), a);
                }
            }
            stored.stream().filter(a -> chats(assistants, a)).forEach(a -> add(data, seen, a.assistantId(), a));
            return out.toString();
        });
    }

    /** An assistant of a graph served here that holds chat messages (the others take no chat completion). */
    private static boolean chats(Assistants assistants, Assistant a) {
        RegisteredGraph g = assistants.graphs().byGraphId(a.graphId());
        return g != null && CompletionRuns.chats(g);
    }

    private static void add(ArrayNode data, Set<String> seen, String id, Assistant a) {
        if (seen.add(id)) {
            data.addObject().put("id", id).put("object", "model").put("created", a.createdAt().getEpochSecond()).put("owned_by", a.graphId());
        }
    }
}
