package io.conduit.runs.memory;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The in-memory twin of Postgres' {@code jsonb @>}, for metadata filters: an object contains another when each of
 * the other's keys is present with a contained value; an array contains another when each element of the other is
 * contained in some element of it; scalars are equal (numbers by value, so 1 matches 1.0).
 */
public final class JsonContainment {

    private JsonContainment() {
    }

    /** True when {@code filter} is null or empty, or {@code value} contains it. */
    public static boolean matches(Map<String, Object> value, Map<String, Object> filter) {
        return filter == null || filter.isEmpty() || contains(value, filter);
    }

    static boolean contains(Object value, Object filter) {
        if (filter instanceof Map<?, ?> f) {
            if (!(value instanceof Map<?, ?> v)) {
                return false;
            }
            for (Map.Entry<?, ?> e : f.entrySet()) {
                if (!v.containsKey(e.getKey()) || !contains(v.get(e.getKey()), e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (filter instanceof List<?> f) {
            if (!(value instanceof List<?> v)) {
                return false;
            }
            return f.stream().allMatch(want -> v.stream().anyMatch(have -> contains(have, want)));
        }
        if (filter instanceof Number f && value instanceof Number v) {
            return new BigDecimal(f.toString()).compareTo(new BigDecimal(v.toString())) == 0;
        }
        return filter == null ? value == null : filter.equals(value);
    }
}
