package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InputText;
import io.conduit.runs.graphs.ThreadGraphs;
import io.conduit.runs.wire.WireState;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code state.get {namespace, keys?}} → {@code {values, checkpoint?:{id, ns}}}: the thread's current values as the
 * protocol's {@code values} events carry them, only {@code keys} when given. An unknown thread has empty values. A
 * subgraph's namespace, as its events carry it ({@code ["<node>:<task id>", ...]}), reads that subgraph's own state
 * (while the run is paused inside it, or as it was left); one that names no subgraph run is {@code no_such_namespace}.
 */
final class StateGetCommand {

    private final ThreadGraphs graphs;

    StateGetCommand(ThreadGraphs graphs) {
        this.graphs = graphs;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params) {
        List<String> ns;
        try {
            ns = namespace(params);
        } catch (ProtocolException e) {
            return Uni.createFrom().failure(e);
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
        return graphs.of(threadId).chain(g -> g.graph().state(threadId, ns)).map(s -> {
            if (s.isEmpty() && !ns.isEmpty()) {
                throw new ProtocolException("no_such_namespace", "no subgraph of thread " + threadId + " has run in namespace " + ns);
            }
            if (s.isEmpty()) {
                out.putObject("values");
                return out;
            }
            ObjectNode values = WireState.protocolValues(s.get().values());
            if (wanted != null) {
                values.retain(wanted);
            }
            out.set("values", values);
            ArrayNode at = out.putObject("checkpoint").put("id", s.get().checkpointId()).putArray("ns");
            ns.forEach(at::add);
            return out;
        });
    }

    /** The {@code namespace} param's segments; absent or null is the root. */
    static List<String> namespace(ObjectNode params) {
        JsonNode ns = params.get("namespace");
        if (ns == null || ns.isNull()) {
            return List.of();
        }
        if (!ns.isArray()) {
            throw ProtocolException.invalid("namespace must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode s : ns) {
            if (!s.isTextual()) {
                throw ProtocolException.invalid("namespace segments must be strings");
            }
            out.add(s.asText());
        }
        return List.copyOf(out);
    }

    static boolean rootNamespace(ObjectNode params) {
        JsonNode ns = params.get("namespace");
        return ns == null || ns.isNull() || (ns.isArray() && ns.isEmpty());
    }
}
