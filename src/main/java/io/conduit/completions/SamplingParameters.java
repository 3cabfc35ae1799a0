package io.conduit.completions;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * OpenAI's parameters that an assistant accepts and ignores (it has its own model settings and tools), checked as
 * OpenAI checks them: one of the wrong type is {@code invalid_type} and one out of range {@code invalid_value}, each
 * naming it, rather than read as absent while a turn runs. Absent and null are fine.
 */
final class SamplingParameters {

    private SamplingParameters() {
    }

    static void check(JsonNode body) {
        number(body, "temperature", 0, 2);
        number(body, "top_p", 0, 1);
        number(body, "presence_penalty", -2, 2);
        number(body, "frequency_penalty", -2, 2);
        integer(body, "max_tokens", 1, Long.MAX_VALUE);
        integer(body, "max_completion_tokens", 1, Long.MAX_VALUE);
        integer(body, "seed", Long.MIN_VALUE, Long.MAX_VALUE);
        integer(body, "top_logprobs", 0, 20);
        bool(body, "logprobs");
        bool(body, "parallel_tool_calls");
        bool(body, "store");
        object(body, "response_format");
        object(body, "logit_bias");
        object(body, "metadata");
        JsonNode stop = present(body, "stop");
        if (stop != null) {
            if (!stop.isTextual() && !(stop.isArray() && allText(stop))) {
                throw type("stop", "a string or an array of strings", stop);
            }
            if (stop.isArray() && stop.size() > 4) {
                throw BadCompletionRequest.invalid("stop", "invalid_value", "Invalid 'stop': array too long. Expected at most 4 items, but got "
                        + stop.size() + " instead.");
            }
        }
        JsonNode tools = present(body, "tools");
        if (tools != null && !(tools.isArray() && allObjects(tools))) {
            throw type("tools", "an array of objects", tools);
        }
        JsonNode choice = present(body, "tool_choice");
        if (choice != null && !choice.isTextual() && !choice.isObject()) {
            throw type("tool_choice", "a string or an object", choice);
        }
    }

    private static void number(JsonNode body, String field, double min, double max) {
        JsonNode v = present(body, field);
        if (v == null) {
            return;
        }
        if (!v.isNumber()) {
            throw type(field, "a decimal", v);
        }
        if (v.doubleValue() < min || v.doubleValue() > max) {
            throw BadCompletionRequest.invalid(field, "invalid_value", "Invalid '" + field + "': expected a value from " + trim(min) + " to "
                    + trim(max) + ", but got " + v + " instead.");
        }
    }

    private static void integer(JsonNode body, String field, long min, long max) {
        JsonNode v = present(body, field);
        if (v == null) {
            return;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw type(field, "an integer", v);
        }
        if (v.longValue() < min || v.longValue() > max) {
            String range = max == Long.MAX_VALUE ? ">= " + min : "from " + min + " to " + max;
            throw BadCompletionRequest.invalid(field, "invalid_value", "Invalid '" + field + "': expected a value " + range + ", but got " + v
                    + " instead.");
        }
    }

    private static void bool(JsonNode body, String field) {
        JsonNode v = present(body, field);
        if (v != null && !v.isBoolean()) {
            throw type(field, "a boolean", v);
        }
    }

    private static void object(JsonNode body, String field) {
        JsonNode v = present(body, field);
        if (v != null && !v.isObject()) {
            throw type(field, "an object", v);
        }
    }

    private static JsonNode present(JsonNode body, String field) {
        JsonNode v = body.get(field);
        return v == null || v.isNull() ? null : v;
    }

    private static BadCompletionRequest type(String field, String expected, JsonNode got) {
        return BadCompletionRequest.invalid(field, "invalid_type", "Invalid type for '" + field + "': expected " + expected + ", but got "
                + kind(got) + " instead.");
    }

    private static String kind(JsonNode v) {
        return v.isTextual() ? "a string" : v.isBoolean() ? "a boolean" : v.isArray() ? "an array" : v.isObject() ? "an object"
                : v.isIntegralNumber() ? "an integer" : "a decimal";
    }

    private static boolean allText(JsonNode array) {
        for (JsonNode n : array) {
            if (!n.isTextual()) {
                return false;
            }
        }
        return true;
    }

    private static boolean allObjects(JsonNode array) {
        for (JsonNode n : array) {
            if (!n.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
