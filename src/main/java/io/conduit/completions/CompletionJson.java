package io.conduit.completions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;

/** What a streamed and a whole answer share: the completion's id, model and time, and its usage. */
record CompletionJson(String id, String model, long created) {

    /** The completion of a run: its id is the run's, so the run can be found from the answer. */
    static CompletionJson of(String runId, String model) {
        return new CompletionJson("chatcmpl-" + runId, model, System.currentTimeMillis() / 1000);
    }

    ObjectNode header(String object) {
        return JsonCodec.MAPPER.createObjectNode().put("id", id).put("object", object).put("created", created).put("model", model);
    }

    /** The tokens of every model call the run made. */
    static ObjectNode usage(RunReading reading) {
        return JsonCodec.MAPPER.createObjectNode().put("prompt_tokens", reading.promptTokens())
                .put("completion_tokens", reading.completionTokens())
                .put("total_tokens", reading.promptTokens() + reading.completionTokens());
    }
}
