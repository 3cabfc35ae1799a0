package io.conduit.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Set;

/**
 * A search's {@code filter} on an item's value, as LangGraph's stores read it: each field of the filter is a
 * top-level field of the value, matched by equality ({@code {"kind": "fact"}}) or by operators
 * ({@code {"stars": {"$gte": 3}}}: {@code $eq $ne $gt $gte $lt $lte}; numbers compare as numbers, strings as strings).
 * Every field must match.
 */
public final class StoreFilter {

    public static final Set<String> OPERATORS = Set.of("$eq", "$ne", "$gt", "$gte", "$lt", "$lte");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StoreFilter() {
    }

    /** Throws {@link IllegalArgumentException} for an operator this filter does not know. */
    public static void check(Map<String, Object> filter) {
        filter.forEach((field, cond) -> {
            if (cond instanceof Map<?, ?> ops && isOperators(ops)) {
                ops.keySet().forEach(op -> {
                    if (!OPERATORS.contains(op)) {
                        throw new IllegalArgumentException("filter." + field + ": unknown operator " + op + "; known: " + String.join(" ", OPERATORS));
                    }
                });
            }
        });
    }

    /** Whether a map is a set of operators rather than a value to equal. */
    public static boolean isOperators(Map<?, ?> m) {
        return !m.isEmpty() && m.keySet().stream().allMatch(k -> k instanceof String s && s.startsWith("$"));
    }

    public static boolean matches(Map<String, Object> value, Map<String, Object> filter) {
        for (Map.Entry<String, Object> f : filter.entrySet()) {
            JsonNode actual = value.containsKey(f.getKey()) ? JSON.valueToTree(value.get(f.getKey())) : null;
            if (f.getValue() instanceof Map<?, ?> ops && isOperators(ops)) {
                for (Map.Entry<?, ?> op : ops.entrySet()) {
                    if (!test((String) op.getKey(), actual, JSON.valueToTree(op.getValue()))) {
                        return false;
                    }
                }
            } else if (!test("$eq", actual, JSON.valueToTree(f.getValue()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean test(String op, JsonNode actual, JsonNode wanted) {
        if (op.equals("$ne")) {
            return actual == null || !same(actual, wanted);
        }
        if (actual == null) {
            return false;
        }
        if (op.equals("$eq")) {
            return same(actual, wanted);
        }
        Integer c = compare(actual, wanted);
        if (c == null) {
            return false;
        }
        return switch (op) {
            case "$gt" -> c > 0;
            case "$gte" -> c >= 0;
            case "$lt" -> c < 0;
            case "$lte" -> c <= 0;
            default -> throw new IllegalArgumentException("unknown operator " + op);
        };
    }

    private static boolean same(JsonNode a, JsonNode b) {
        return a.isNumber() && b.isNumber() ? a.decimalValue().compareTo(b.decimalValue()) == 0 : a.equals(b);
    }

    private static Integer compare(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        if (a.isTextual() && b.isTextual()) {
            return Integer.signum(a.asText().compareTo(b.asText()));
        }
        return null;
    }
}
