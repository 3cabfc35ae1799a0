package io.conduit.runs.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpecJson;

/** A run in the Agent Server's JSON shape (the SDK's {@code Run}): what the API answers, and what a webhook posts. */
public final class RunJson {

    private RunJson() {
    }

    public static ObjectNode of(Run r) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("run_id", r.runId()).put("thread_id", r.threadId())
                .put("assistant_id", r.assistantId()).put("created_at", r.createdAt().toString())
                .put("updated_at", r.updatedAt().toString()).put("status", r.status().wire())
                .put("multitask_strategy", r.multitaskStrategy().wire());
        o.set("metadata", JsonCodec.MAPPER.valueToTree(r.metadata()));
        o.set("kwargs", JsonCodec.MAPPER.valueToTree(RunSpecJson.toKwargs(r.spec())));
        return o;
    }
}
