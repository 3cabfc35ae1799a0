package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.http.ClientJson;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;

/**
 * One command of the thread protocol, {@code {id, method, params}}. {@code id} is echoed as sent (any JSON value; the
 * SDK numbers them); {@code params} is an object, empty when absent.
 */
public record ProtocolCommand(JsonNode id, String method, ObjectNode params) {

    /** Thrown for a frame that is not a command; {@code id} is the frame's id when it had one, else null. */
    public static final class Malformed extends RuntimeException {
        private final JsonNode id;

        Malformed(JsonNode id, String message) {
            super(message, null, false, false);
            this.id = id;
        }

        public JsonNode id() {
            return id;
        }
    }

    /** A frame's text (a WebSocket text frame, whose UTF-8 the socket checked: {@code Utf8Frames}). */
    public static ProtocolCommand parse(String text) {
        JsonNode frame;
        try {
            frame = JsonCodec.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new Malformed(null, "the frame is not JSON");
        }
        ProtocolCommand command = of(frame);
        try {
            ClientJson.check(frame); // text no store can keep, named by its field (params.metadata.note)
        } catch (InvalidInputException e) {
            throw new Malformed(e.field().startsWith("id") ? null : command.id(), e.getMessage());
        }
        return command;
    }

    /** An HTTP command's body: its bytes must be UTF-8 ({@link ClientJson#checkUtf8}). */
    public static ProtocolCommand parse(byte[] body) {
        try {
            ClientJson.checkUtf8(body);
        } catch (InvalidInputException e) {
            throw new Malformed(null, e.getMessage());
        }
        return parse(new String(body, java.nio.charset.StandardCharsets.UTF_8));
    }

    public static ProtocolCommand of(JsonNode frame) {
        if (frame == null || !frame.isObject()) {
            throw new Malformed(null, "a command is a JSON object {id, method, params}");
        }
        JsonNode id = frame.get("id");
        JsonNode method = frame.get("method");
        if (id == null || id.isNull() || id.isContainerNode()) {
            throw new Malformed(null, "a command needs an id (a number or a string)");
        }
        if (method == null || !method.isTextual() || method.asText().isEmpty()) {
            throw new Malformed(id, "a command needs a method (a string)");
        }
        JsonNode params = frame.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            throw new Malformed(id, "params must be an object");
        }
        return new ProtocolCommand(id, method.asText(), params == null || params.isNull() ? JsonCodec.MAPPER.createObjectNode() : (ObjectNode) params);
    }
}
