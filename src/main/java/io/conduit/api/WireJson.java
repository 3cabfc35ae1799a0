package io.conduit.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.Interrupt;
import io.conduit.graph.StateSnapshot;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Assistant;
import io.conduit.runs.Run;
import io.conduit.runs.ThreadRecord;
import io.conduit.runs.wire.WireState;
import java.time.Instant;
import java.util.List;

/** Records in the Agent Server's JSON shapes (the SDK's {@code Run}, {@code Thread}, {@code Assistant}, {@code ThreadState}). */
final class WireJson {

    private WireJson() {
    }

    static ObjectNode run(Run r) {
        return io.conduit.runs.wire.RunJson.of(r);
    }

    static ObjectNode thread(ThreadRecord t, StateSnapshot state) {
        ObjectNode o = obj().put("thread_id", t.threadId()).put("created_at", t.createdAt().toString())
                .put("updated_at", t.updatedAt().toString())
                .put("state_updated_at", state == null ? t.updatedAt().toString() : Instant.ofEpochMilli(state.createdAtMillis()).toString())
                .put("status", t.status().wire());
        o.set("metadata", JsonCodec.MAPPER.valueToTree(t.metadata()));
        o.set("values", state == null ? obj() : WireState.values(state.values()));
        ObjectNode interrupts = o.putObject("interrupts");
        if (state != null) {
            // by the task of the thread's next step that waits on them, as the state's tasks carry them
            for (int k = 0; k < state.next().size(); k++) {
                List<Interrupt> raised = state.interruptsByTask().get(state.taskId(k));
                if (raised != null) {
                    interrupts.set(state.taskId(k), interrupts(raised));
                }
            }
        }
        o.putObject("config");
        o.putNull("error");
        return o;
    }

    static ObjectNode assistant(Assistant a) {
        ObjectNode o = obj().put("assistant_id", a.assistantId()).put("graph_id", a.graphId()).put("name", a.name())
                .put("description", a.description()).put("version", a.version())
                .put("created_at", a.createdAt().toString()).put("updated_at", a.updatedAt().toString());
        o.set("config", JsonCodec.MAPPER.valueToTree(a.config()));
        o.set("context", JsonCodec.MAPPER.valueToTree(a.context()));
        o.set("metadata", JsonCodec.MAPPER.valueToTree(a.metadata()));
        return o;
    }

    /** LangGraph's ThreadState; an unknown or empty thread reads as empty values and a null checkpoint. */
    static ObjectNode state(String threadId, StateSnapshot s) {
        ObjectNode o = obj();
        if (s == null) {
            o.putObject("values");
            o.putArray("next");
            o.putArray("tasks");
            o.putObject("metadata");
            o.putNull("created_at");
            o.putNull("checkpoint");
            o.putNull("parent_checkpoint");
            o.putArray("interrupts");
            o.putNull("checkpoint_id");
            o.putNull("parent_checkpoint_id");
            return o;
        }
        o.set("values", WireState.values(s.values()));
        ArrayNode next = o.putArray("next");
        s.next().forEach(next::add);
        ArrayNode tasks = o.putArray("tasks");
        for (int k = 0; k < s.next().size(); k++) {
            // each task under the id its run gives it: the key of the thread's interrupts, unique in a fan-out
            ObjectNode t = tasks.addObject().put("id", s.taskId(k)).put("name", s.next().get(k));
            t.putArray("path");
            t.putNull("error");
            // the interrupts it raised (a subgraph's, for a subgraph node), which useStream reads after a reload; a
            // static breakpoint is none (LangGraph's clients see it as the paused `next`)
            t.set("interrupts", interrupts(s.interruptsByTask().getOrDefault(s.taskId(k), List.of())));
            t.putNull("checkpoint");
            t.putNull("state");
            t.putNull("result");
        }
        ObjectNode meta = o.putObject("metadata");
        s.metadata().forEach(meta::put);
        meta.put("source", s.source().wire()).put("step", s.step());
        o.put("created_at", Instant.ofEpochMilli(s.createdAtMillis()).toString());
        o.set("checkpoint", checkpoint(threadId, s.checkpointId()));
        o.set("parent_checkpoint", s.parentCheckpointId() == null ? null : checkpoint(threadId, s.parentCheckpointId()));
        ArrayNode interrupts = o.putArray("interrupts");
        for (Interrupt i : s.interrupts()) {
            if (i.answerable()) {
                interrupts.addObject().put("id", i.id()).set("value", JsonCodec.MAPPER.valueToTree(i.value()));
            }
        }
        o.put("checkpoint_id", s.checkpointId());
        if (s.parentCheckpointId() != null) {
            o.put("parent_checkpoint_id", s.parentCheckpointId());
        } else {
            o.putNull("parent_checkpoint_id");
        }
        return o;
    }

    /** Interrupts as LangGraph's clients read them: {@code [{id, value}]}. */
    static ArrayNode interrupts(List<Interrupt> list) {
        ArrayNode arr = JsonCodec.MAPPER.createArrayNode();
        for (Interrupt x : list) {
            arr.addObject().put("id", x.id()).set("value", JsonCodec.MAPPER.valueToTree(x.value()));
        }
        return arr;
    }

    static ObjectNode checkpoint(String threadId, String checkpointId) {
        return obj().put("thread_id", threadId).put("checkpoint_ns", "").put("checkpoint_id", checkpointId);
    }

    static ObjectNode obj() {
        return JsonCodec.MAPPER.createObjectNode();
    }
}
