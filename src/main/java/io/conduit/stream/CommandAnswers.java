package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;

/** The protocol's answers: {@code {type:"success", id, result, meta}} and {@code {type:"error", id, error, message}}. */
public final class CommandAnswers {

    private CommandAnswers() {
    }

    public static ObjectNode success(JsonNode id, JsonNode result, String threadId, long appliedThroughSeq) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("type", "success");
        o.set("id", id == null ? NullNode.getInstance() : id);
        o.set("result", result);
        o.putObject("meta").put("thread_id", threadId).put("applied_through_seq", appliedThroughSeq);
        return o;
    }

    public static ObjectNode error(JsonNode id, String code, String message) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("type", "error");
        o.set("id", id == null ? NullNode.getInstance() : id);
        return o.put("error", code).put("message", message);
    }
}
