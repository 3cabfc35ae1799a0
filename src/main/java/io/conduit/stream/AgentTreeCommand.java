package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.events.ThreadEventLog;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code agent.getTree {run_id?}} → {@code {tree:{namespace, status, graph_name, children}}}: the run (the thread's
 * newest by default) and the namespaces its lifecycle events opened, each with its last status. Children are read
 * from the thread's protocol log, so a run past its retention shows only its root.
 */
final class AgentTreeCommand {

    private final RunStore runStore;
    private final ProtocolRuns runs;
    private final ProtocolEventLogs logs;

    AgentTreeCommand(RunStore runStore, ProtocolRuns runs, ProtocolEventLogs logs) {
        this.runStore = runStore;
        this.runs = runs;
        this.logs = logs;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params) {
        JsonNode id = params.get("run_id");
        Uni<Run> run = id == null || id.isNull() ? runs.latest(threadId)
                : runStore.get(id.asText()).map(r -> r.filter(x -> x.threadId().equals(threadId))
                .orElseThrow(() -> new ProtocolException("no_such_run", "Run " + id.asText() + " not found on thread " + threadId)));
        return run.map(this::tree);
    }

    private JsonNode tree(Run r) {
        ObjectNode root = JsonCodec.MAPPER.createObjectNode();
        root.putArray("namespace");
        root.put("status", status(r));
        root.put("graph_name", Objects.requireNonNullElse(r.spec().graphId(), ""));
        Map<String, String[]> children = new LinkedHashMap<>(); // ns → {status, graph name}
        ThreadEventLog log = logs.find(r.threadId());
        if (log != null) {
            for (var e : LogReplay.after(log, -1L, e -> e.runId().equals(r.runId()) && "lifecycle".equals(e.mode()) && !e.ns().isEmpty())) {
                JsonNode data = read(e.data()).path("params").path("data");
                String name = data.path("graph_name").asText(e.ns().substring(e.ns().lastIndexOf('|') + 1).split(":")[0]);
                children.put(e.ns(), new String[]{data.path("event").asText("running"), name});
            }
        }
        if (!children.isEmpty()) {
            ArrayNode list = root.putArray("children");
            children.forEach((ns, v) -> {
                ObjectNode c = list.addObject();
                List<String> segments = EventFilter.segments(ns);
                segments.forEach(c.putArray("namespace")::add);
                c.put("status", v[0]).put("graph_name", v[1]);
            });
        }
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        out.set("tree", root);
        return out;
    }

    static String status(Run r) {
        return switch (r.status()) {
            case PENDING, RUNNING -> "running";
            case SUCCESS -> "completed";
            case INTERRUPTED -> "interrupted";
            case ERROR, TIMEOUT -> "failed";
        };
    }

    private static JsonNode read(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (Exception e) {
            return JsonCodec.MAPPER.createObjectNode();
        }
    }
}
