package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.ThreadGraphs;
import io.conduit.runs.InputText;
import io.conduit.runs.WireState;
import io.smallrye.mutiny.Uni;
import java.util.HashSet;
import java.util.Set;

/**
 * {@code state.get {namespace, keys?}} → {@code {values, checkpoint?:{id, ns}}}: the thread's current values as the
 * protocol's {@code values} events carry them, only {@code keys} when given. An unknown thread has empty values.
 */
final class StateGetCommand {

    private final ThreadGraphs graphs;

    StateGetCommand(ThreadGraphs graphs) {
        this.graphs = graphs;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params) {
        if (!rootNamespace(params)) {
            return Uni.createFrom().failure(new ProtocolException("no_such_namespace", "state.get reads the root namespace [] only"));
        }
        Set<String> keys = null;
        JsonNode k = params.get("keys");
        if (k != null && !k.isNull()) {
            if (!k.isArray()) {
                return Uni.createFrom().failure(ProtocolException.invalid("keys must be a list of state keys"));
            }
            keys = new HashSet<>();
            for (JsonNode key : k) {
                keys.add(key.asText());
            }
        }
        Set<String> wanted = keys;
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        if (!InputText.isId(threadId)) {
            out.putObject("values");
            return Uni.createFrom().item(out);
        }
        return graphs.of(threadId).chain(g -> g.graph().state(threadId)).map(s -> {
            if (s.isEmpty()) {
                out.putObject("values");
                return out;
            }
            ObjectNode values = WireState.protocolValues(s.get().values());
            if (wanted != null) {
                values.retain(wanted);
            }
            out.set("values", values);
            out.putObject("checkpoint").put("id", s.get().checkpointId()).putArray("ns");
            return out;
        });
    }

    static boolean rootNamespace(ObjectNode params) {
        JsonNode ns = params.get("namespace");
        return ns == null || ns.isNull() || (ns.isArray() && ns.isEmpty());
    }
}
