package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The subscription filter as pure functions: channels, namespace prefixes (with the {@code name:} rule), depth. */
class EventFilterTest {

    private static EventFilter filter(String json, boolean strict) throws Exception {
        return EventFilter.parse(JsonCodec.MAPPER.readTree(json), strict);
    }

    @Test
    void channelsPickMethodsAndInputCoversBothInputEventsAndCustomCoversNamedOnes() throws Exception {
        EventFilter f = filter("{\"channels\":[\"lifecycle\",\"input\",\"custom\"]}", true);
        assertThat(f.matches("lifecycle", List.of())).isTrue();
        assertThat(f.matches("input.requested", List.of())).isTrue();
        assertThat(f.matches("input.answered", List.of())).isTrue();
        assertThat(f.matches("custom", List.of())).isTrue();
        assertThat(f.matches("custom:progress", List.of())).isTrue();
        assertThat(f.matches("messages", List.of())).isFalse();
        assertThat(f.matches("values", List.of())).isFalse();

        EventFilter named = filter("{\"channels\":[\"custom:progress\"]}", true);
        assertThat(named.matches("custom:progress", List.of())).isTrue();
        assertThat(named.matches("custom:other", List.of())).isFalse();
        assertThat(named.matches("custom", List.of())).isFalse();
    }

    @Test
    void aLogNamespaceMatchesAsItsSegmentsDo() throws Exception {
        for (String json : java.util.List.of("{\"channels\":[\"messages\"]}", "{\"channels\":[\"messages\"],\"depth\":1}",
                "{\"channels\":[\"messages\",\"lifecycle\"],\"namespaces\":[[\"model\"]]}",
                "{\"channels\":[\"messages\"],\"namespaces\":[[]],\"depth\":0}")) {
            EventFilter f = filter(json, true);
            for (String method : java.util.List.of("messages", "lifecycle", "values")) {
                for (String ns : java.util.List.of("", "model:t1", "outer:t1|model:t2", "tools:t3")) {
                    assertThat(f.matches(method, ns)).as(json + " " + method + " " + ns).isEqualTo(f.matches(method, EventFilter.segments(ns)));
                }
            }
        }
    }

    @Test
    void noNamespacesMeansEveryNamespace() throws Exception {
        EventFilter f = filter("{\"channels\":[\"messages\"]}", true);
        assertThat(f.matches("messages", List.of())).isTrue();
        assertThat(f.matches("messages", List.of("model:abc"))).isTrue();
        assertThat(f.matches("messages", List.of("agent:1", "tools:2"))).isTrue();
    }

    @Test
    void aSegmentWithoutAColonMatchesThatNameWithAnySuffix() throws Exception {
        EventFilter f = filter("{\"channels\":[\"messages\"],\"namespaces\":[[\"model\"]]}", true);
        assertThat(f.matches("messages", List.of("model:5d3d60e2"))).isTrue();
        assertThat(f.matches("messages", List.of("model"))).isTrue();
        assertThat(f.matches("messages", List.of("model:5d3d60e2", "inner:1"))).isTrue();
        assertThat(f.matches("messages", List.of("modelx:1"))).isFalse();
        assertThat(f.matches("messages", List.of("tools:1"))).isFalse();
        assertThat(f.matches("messages", List.of())).as("shorter than the prefix").isFalse();

        EventFilter exact = filter("{\"channels\":[\"messages\"],\"namespaces\":[[\"model:a\"]]}", true);
        assertThat(exact.matches("messages", List.of("model:a"))).isTrue();
        assertThat(exact.matches("messages", List.of("model:b"))).isFalse();
    }

    @Test
    void depthCountsSegmentsBelowThePrefix() throws Exception {
        EventFilter rootOnly = filter("{\"channels\":[\"lifecycle\"],\"namespaces\":[[]],\"depth\":0}", true);
        assertThat(rootOnly.matches("lifecycle", List.of())).isTrue();
        assertThat(rootOnly.matches("lifecycle", List.of("model:1"))).isFalse();

        EventFilter one = filter("{\"channels\":[\"lifecycle\"],\"namespaces\":[[\"agent\"]],\"depth\":1}", true);
        assertThat(one.matches("lifecycle", List.of("agent:1"))).isTrue();
        assertThat(one.matches("lifecycle", List.of("agent:1", "model:2"))).isTrue();
        assertThat(one.matches("lifecycle", List.of("agent:1", "model:2", "x:3"))).isFalse();

        EventFilter noPrefix = filter("{\"channels\":[\"lifecycle\"],\"depth\":1}", true);
        assertThat(noPrefix.matches("lifecycle", List.of("a:1"))).isTrue();
        assertThat(noPrefix.matches("lifecycle", List.of("a:1", "b:2"))).isFalse();
    }

    @Test
    void severalPrefixesAreAlternatives() throws Exception {
        EventFilter f = filter("{\"channels\":[\"tools\"],\"namespaces\":[[\"tools\"],[\"agent\",\"tools\"]]}", true);
        assertThat(f.matches("tools", List.of("tools:1"))).isTrue();
        assertThat(f.matches("tools", List.of("agent:1", "tools:2"))).isTrue();
        assertThat(f.matches("tools", List.of("agent:1", "model:2"))).isFalse();
    }

    @Test
    void channelsAreRequiredAndUnknownOnesRefusedOnlyWhenStrict() throws Exception {
        for (String bad : new String[]{"{}", "{\"channels\":[]}", "{\"channels\":\"values\"}", "{\"channels\":[1]}"}) {
            assertThatThrownBy(() -> filter(bad, true)).isInstanceOf(ProtocolException.class)
                    .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo("invalid_argument"));
        }
        assertThatThrownBy(() -> filter("{\"channels\":[\"nope\"]}", true)).hasMessageContaining("unknown channel nope");
        EventFilter lax = filter("{\"channels\":[\"nope\"]}", false);
        assertThat(lax.matches("values", List.of())).isFalse();
        assertThatThrownBy(() -> filter("{\"channels\":[\"values\"],\"depth\":-1}", true)).hasMessageContaining("depth");
        assertThatThrownBy(() -> filter("{\"channels\":[\"values\"],\"namespaces\":[\"a\"]}", true)).hasMessageContaining("namespace");
    }

    @Test
    void logNamespacesAreSegmentsJoinedByBars() {
        assertThat(EventFilter.segments("")).isEmpty();
        assertThat(EventFilter.segments("a:1|b:2")).containsExactly("a:1", "b:2");
    }

    @Test
    void sinceIsASeqOrAnEventId() throws Exception {
        JsonNode p = JsonCodec.MAPPER.readTree("{\"since\":12}");
        assertThat(ThreadCommands.since(p)).isEqualTo(12L);
        assertThat(ThreadCommands.since(JsonCodec.MAPPER.readTree("{\"since\":\"7\"}"))).isEqualTo(7L);
        assertThat(ThreadCommands.since(JsonCodec.MAPPER.readTree("{}"))).isNull();
        assertThatThrownBy(() -> ThreadCommands.since(JsonCodec.MAPPER.readTree("{\"since\":-1}"))).isInstanceOf(ProtocolException.class);
    }
}
