package io.conduit.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.graph.GraphEvent;

/** One run event as a flat JSON object: {@code event}, where it happened, and its own fields. */
final class RunEventJson {

    private RunEventJson() {
    }

    static String of(GraphEvent e) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        o.put("event", switch (e) {
            case GraphEvent.RunStarted r -> "run_started";
            case GraphEvent.TaskStarted t -> "task_started";
            case GraphEvent.TaskFinished t -> "task_finished";
            case GraphEvent.Values v -> "values";
            case GraphEvent.Token t -> "token";
            case GraphEvent.ToolCallChunk c -> "tool_call_chunk";
            case GraphEvent.ChildStarted c -> "child_started";
            case GraphEvent.ChildEnded c -> "child_ended";
            case GraphEvent.Custom c -> "custom";
            case GraphEvent.Interrupted i -> "interrupted";
            case GraphEvent.RunFailed f -> "error";
            case GraphEvent.RunFinished f -> "finished";
        });
        GraphEvent.Tag tag = e.tag();
        o.put("run_id", tag.runId()).put("thread_id", tag.threadId()).put("ns", tag.ns()).put("step", tag.step());
        if (tag.node() != null) {
            o.put("node", tag.node());
        }
        switch (e) {
            case GraphEvent.RunStarted r -> o.put("checkpoint_id", r.checkpointId());
            case GraphEvent.TaskStarted t -> o.put("task_id", t.taskId());
            case GraphEvent.TaskFinished t -> o.put("task_id", t.taskId()).set("update", StateJson.of(t.update()));
            case GraphEvent.Values v -> o.put("checkpoint_id", v.checkpointId()).set("values", StateJson.of(v.state()));
            case GraphEvent.Token t -> o.put("message_id", t.messageId()).put("text", t.text());
            case GraphEvent.ToolCallChunk c -> o.put("message_id", c.messageId()).put("index", c.index())
                    .put("call_id", c.callId()).put("name", c.name()).put("args_delta", c.argsDelta());
            case GraphEvent.ChildStarted c -> o.put("child_id", c.childId()).put("kind", c.kind()).put("name", c.name())
                    .set("input", JsonCodec.MAPPER.valueToTree(c.input()));
            case GraphEvent.ChildEnded c -> {
                o.put("child_id", c.childId()).put("kind", c.kind()).put("name", c.name())
                        .set("output", JsonCodec.MAPPER.valueToTree(c.output()));
                if (c.error() != null) {
                    o.put("error", c.error());
                }
            }
            case GraphEvent.Custom c -> o.put("name", c.name()).set("payload", JsonCodec.MAPPER.valueToTree(c.payload()));
            case GraphEvent.Interrupted i -> o.put("checkpoint_id", i.checkpointId()).set("interrupts", JsonCodec.MAPPER.valueToTree(i.interrupts()));
            case GraphEvent.RunFailed f -> o.put("code", f.code()).put("message", f.message());
            case GraphEvent.RunFinished f -> o.put("checkpoint_id", f.checkpointId()).set("values", StateJson.of(f.state()));
        }
        return o.toString();
    }
}
