package io.conduit.llm.simulator;

/** Request bodies for the simulator's tests, in OpenAI's shape, with the agent's tools. */
final class Requests {

    static final String TOOLS = """
            [{"type":"function","function":{"name":"get_current_time","parameters":{"type":"object","properties":{"timezone":{"type":"string"}}}}},
             {"type":"function","function":{"name":"recall","parameters":{"type":"object","properties":{"key":{"type":"string"}}}}},
             {"type":"function","function":{"name":"remember","parameters":{"type":"object","properties":{"key":{"type":"string"},"value":{"type":"string"}}}}}]""";

    private Requests() {
    }

    static String user(String text) {
        return "{\"role\":\"user\",\"content\":" + quote(text) + "}";
    }

    static String system(String text) {
        return "{\"role\":\"system\",\"content\":" + quote(text) + "}";
    }

    /** An assistant message that called one tool, and the tool's result. */
    static String round(String callId, String tool, String result) {
        return "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + callId + "\",\"type\":\"function\","
                + "\"function\":{\"name\":\"" + tool + "\",\"arguments\":\"{}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"" + callId + "\",\"content\":" + quote(result) + "}";
    }

    static String body(boolean stream, boolean tools, String... messages) {
        return "{\"model\":\"sim-test\",\"stream\":" + stream + ",\"temperature\":0.2,"
                + (tools ? "\"tools\":" + TOOLS + "," : "")
                + "\"messages\":[" + String.join(",", messages) + "]}";
    }

    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
