package io.conduit.runs.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-memory containment must answer as {@code jsonb @>} does (the contract suites check the common cases on both). */
class JsonContainmentTest {

    @Test
    void objectsAreContainedKeyByKeyAndRecursively() {
        Map<String, Object> value = Map.of("a", 1, "b", Map.of("c", "x", "d", List.of(1, 2)), "e", true);
        assertThat(JsonContainment.matches(value, null)).isTrue();
        assertThat(JsonContainment.matches(value, Map.of())).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("a", 1, "e", true))).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("b", Map.of()))).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("b", Map.of("c", "x")))).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("b", Map.of("c", "y")))).isFalse();
        assertThat(JsonContainment.matches(value, Map.of("b", "x"))).isFalse();
        assertThat(JsonContainment.matches(value, Map.of("e", "true"))).isFalse();
        assertThat(JsonContainment.matches(value, Map.of("z", 1))).isFalse();
    }

    @Test
    void numbersCompareByValue() {
        assertThat(JsonContainment.matches(Map.of("n", 1), Map.of("n", 1.0))).isTrue();
        assertThat(JsonContainment.matches(Map.of("n", 1L), Map.of("n", 1))).isTrue();
        assertThat(JsonContainment.matches(Map.of("n", 1.5), Map.of("n", 1))).isFalse();
        assertThat(JsonContainment.matches(Map.of("n", 1), Map.of("n", "1"))).isFalse();
    }

    @Test
    void arraysContainEveryElementSomewhereInAnyOrder() {
        Map<String, Object> value = Map.of("tags", List.of("a", "b", Map.of("k", 1, "j", 2)));
        assertThat(JsonContainment.matches(value, Map.of("tags", List.of("b", "a")))).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("tags", List.of()))).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("tags", List.of(Map.of("k", 1))))).isTrue();
        assertThat(JsonContainment.matches(value, Map.of("tags", List.of("c")))).isFalse();
        // a scalar is not contained in an array below the top level (as in Postgres)
        assertThat(JsonContainment.matches(value, Map.of("tags", "a"))).isFalse();
    }

    @Test
    void nullIsAValueLikeAnyOther() {
        Map<String, Object> value = new HashMap<>();
        value.put("gone", null);
        assertThat(JsonContainment.matches(value, filterOfNull("gone"))).isTrue();
        assertThat(JsonContainment.matches(Map.of("gone", 1), filterOfNull("gone"))).isFalse();
        assertThat(JsonContainment.matches(Map.of(), filterOfNull("gone"))).isFalse();
        assertThat(JsonContainment.matches(Map.of("l", Arrays.asList(1, null)), Map.of("l", Arrays.asList((Object) null)))).isTrue();
    }

    private static Map<String, Object> filterOfNull(String key) {
        Map<String, Object> f = new HashMap<>();
        f.put(key, null);
        return f;
    }
}
