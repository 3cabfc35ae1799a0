package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Error bodies in OpenAI's shape, {@code {"error": {"message", "type", "param", "code"}}}, which OpenAI clients parse. */
final class OpenAiErrors {

    private OpenAiErrors() {
    }

    static String of(InvalidCompletionRequest e) {
        return body(e.getMessage(), "invalid_request_error", e.param(), e.code());
    }

    static String disabled() {
        return body("The simulator is switched off (conduit.simulator.enabled=false).", "invalid_request_error", null, "simulator_disabled");
    }

    static String internal(String message) {
        return body(message, "server_error", null, "internal_error");
    }

    private static String body(String message, String type, String param, String code) {
        ObjectNode body = SimulatorJson.MAPPER.createObjectNode();
        ObjectNode error = body.putObject("error").put("message", message).put("type", type);
        if (param == null) {
            error.putNull("param");
        } else {
            error.put("param", param);
        }
        error.put("code", code);
        return body.toString();
    }
}
