package io.conduit.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import io.conduit.checkpoint.Stored;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

    public record Inner(String label, double weight) {
    }

    public record Sample(String name, int count, List<String> tags, Inner inner, Map<String, Integer> scores) {
    }

    private static final JsonCodec<Sample> CODEC = JsonCodec.of(Sample.class);

    private static Sample sample() {
        return new Sample("naïve \"quoted\" 日本", 3, List.of("a", "b"), new Inner("x", 1.5), Map.of("k", 1, "j", 2));
    }

    @Test
    void aRecordRoundTrips() {
        Sample s = sample();
        String json = CODEC.encode(s);
        assertThat(CODEC.decode(json)).isEqualTo(s).isNotSameAs(s);
        // and so does one with nulls in reference fields
        Sample sparse = new Sample(null, 0, List.of(), null, Map.of());
        assertThat(CODEC.decode(CODEC.encode(sparse))).isEqualTo(sparse);
    }

    @Test
    void aGenericListRoundTrips() {
        JavaType type = JsonCodec.MAPPER.getTypeFactory().constructCollectionType(List.class, Inner.class);
        JsonCodec<List<Inner>> codec = JsonCodec.of(type);
        List<Inner> items = List.of(new Inner("a", 1), new Inner("b", 2));
        List<Inner> back = codec.decode(codec.encode(items));
        assertThat(back).containsExactlyElementsOf(items);
        assertThat(back.get(0)).isInstanceOf(Inner.class);
    }

    @Test
    void anUnknownPropertyFailsClosed() {
        String json = "{\"name\":\"a\",\"count\":1,\"tags\":[],\"inner\":null,\"scores\":{},\"extra\":true}";
        assertThatThrownBy(() -> CODEC.decode(json))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Sample")
                .hasMessageContaining("extra");
        // also inside a nested value
        String nested = "{\"name\":\"a\",\"count\":1,\"tags\":[],\"inner\":{\"label\":\"x\",\"weight\":1,\"colour\":\"red\"},\"scores\":{}}";
        assertThatThrownBy(() -> CODEC.decode(nested)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour");
    }

    @Test
    void corruptJsonFailsNamingTheType() {
        for (String corrupt : List.of("{\"name\": \"a\", \"count\": ", "not json at all", "", "{\"name\": \"a\"]", "[1, 2]")) {
            assertThatThrownBy(() -> CODEC.decode(corrupt))
                    .as("decoding <%s>", corrupt)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Sample");
        }
    }

    @Test
    void valuesOfTheWrongShapeFail() {
        assertThatThrownBy(() -> CODEC.decode("{\"name\":\"a\",\"count\":\"many\",\"tags\":[],\"inner\":null,\"scores\":{}}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Sample");
        // a null for a primitive is not silently turned into 0
        assertThatThrownBy(() -> CODEC.decode("{\"name\":\"a\",\"count\":null,\"tags\":[],\"inner\":null,\"scores\":{}}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Sample");
    }

    @Test
    void aValueJacksonCannotWriteFailsWithIllegalArgument() {
        JsonCodec<Object> codec = JsonCodec.of(Object.class);
        assertThatThrownBy(() -> codec.encode(new Object())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLiveValueDecodesToTheSameInstance() {
        Sample s = sample();
        Stored live = Stored.live(s, CODEC);
        assertThat(live.decode(CODEC)).isSameAs(s);
        // another codec of the same type takes the instance as it is, too
        assertThat(live.decode(JsonCodec.of(Sample.class))).isSameAs(s);
    }

    @Test
    void aLiveValueDecodedByAnotherTypeIsConverted() {
        Stored live = Stored.live(new Inner("x", 2.0), JsonCodec.of(Inner.class));
        @SuppressWarnings("unchecked")
        Map<String, Object> asMap = live.decode(JsonCodec.of(Map.class));
        assertThat(asMap).containsEntry("label", "x").containsEntry("weight", 2.0);
    }

    @Test
    void theJsonOfALiveValueIsTheCodecsEncoding() {
        Sample s = sample();
        Stored live = Stored.live(s, CODEC);
        assertThat(live.json()).isEqualTo(CODEC.encode(s));
        assertThat(live.json()).isEqualTo(CODEC.encode(s));
        assertThat(CODEC.decode(live.json())).isEqualTo(s);
    }

    @Test
    void storedJsonDecodesThroughTheCodec() {
        Sample s = sample();
        Stored json = Stored.json(CODEC.encode(s));
        assertThat(json.json()).isEqualTo(CODEC.encode(s));
        assertThat(json.decode(CODEC)).isEqualTo(s);
        assertThatThrownBy(() -> Stored.json("{\"nope\":1}").decode(CODEC)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fromLiveConvertsForeignShapesAndKeepsInstances() {
        Sample s = sample();
        assertThat(CODEC.fromLive(s)).isSameAs(s);
        assertThat(CODEC.fromLive(null)).isNull();
        Map<String, Object> raw = Map.of("name", "n", "count", 2, "tags", List.of("t"), "inner", Map.of("label", "l", "weight", 0.5),
                "scores", Map.of());
        assertThat(CODEC.fromLive(raw)).isEqualTo(new Sample("n", 2, List.of("t"), new Inner("l", 0.5), Map.of()));
    }
}
