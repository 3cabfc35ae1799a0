package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StreamModeTest {

    /** The Agent Server's modes, as LangGraph's clients send them and read them back. */
    private static final Map<String, StreamMode> WIRE = Map.of("values", StreamMode.VALUES, "updates", StreamMode.UPDATES,
            "messages-tuple", StreamMode.MESSAGES_TUPLE, "messages", StreamMode.MESSAGES, "custom", StreamMode.CUSTOM,
            "events", StreamMode.EVENTS, "debug", StreamMode.DEBUG, "tasks", StreamMode.TASKS, "checkpoints", StreamMode.CHECKPOINTS);

    @Test
    void everyWireNameReadsAsItsModeAndWritesBackTheSame() throws Exception {
        assertThat(StreamMode.values()).containsExactlyInAnyOrderElementsOf(WIRE.values());
        for (var e : WIRE.entrySet()) {
            assertThat(StreamMode.of(e.getKey())).isEqualTo(e.getValue());
            assertThat(e.getValue().wire()).isEqualTo(e.getKey());
            assertThat(JsonCodec.MAPPER.writeValueAsString(e.getValue())).isEqualTo("\"" + e.getKey() + "\"");
        }
    }

    @Test
    void messagesTupleAndMessagesAreTwoModesRecordedAsAsked() throws Exception {
        assertThat(StreamMode.of("messages-tuple")).isEqualTo(StreamMode.MESSAGES_TUPLE);
        assertThat(JsonCodec.MAPPER.writeValueAsString(StreamMode.parse(json("[\"messages-tuple\", \"messages\"]"))))
                .isEqualTo("[\"messages-tuple\",\"messages\"]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"telepathy", "Values", "VALUES", " values", "messages_tuple", ""})
    void anUnknownNameIsA422NamingIt(String name) {
        assertThatThrownBy(() -> StreamMode.of(name)).isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(e.field()).isEqualTo("stream_mode");
            assertThat(e.getMessage()).contains("unknown mode \"" + name + "\"").contains("messages-tuple").contains("checkpoints");
        });
    }

    @Test
    void aRequestsModesAreOneOrAListOrAJsonEncodedListEachOnceInTheOrderAsked() {
        assertThat(StreamMode.parse(null)).containsExactly(StreamMode.VALUES);
        assertThat(StreamMode.parse(json("null"))).containsExactly(StreamMode.VALUES);
        assertThat(StreamMode.parse(json("\"updates\""))).containsExactly(StreamMode.UPDATES);
        assertThat(StreamMode.parse(json("[\"events\", \"values\", \"messages-tuple\", \"messages\", \"events\"]")))
                .containsExactly(StreamMode.EVENTS, StreamMode.VALUES, StreamMode.MESSAGES_TUPLE, StreamMode.MESSAGES);
        assertThat(StreamMode.parse(json("\"[\\\"tasks\\\",\\\"debug\\\"]\""))).containsExactly(StreamMode.TASKS, StreamMode.DEBUG);
        assertThat(StreamMode.parse(json("[]"))).isEmpty();
    }

    @Test
    void whatIsNoModeIsRefusedWithTheFieldNamed() {
        for (String bad : List.of("3", "[\"values\", 3]", "[[\"values\"]]", "{\"mode\": \"values\"}", "[\"values\", \"nope\"]")) {
            assertThatThrownBy(() -> StreamMode.parse(json(bad))).as(bad)
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("stream_mode"));
        }
        assertThatThrownBy(() -> StreamMode.parse(json("\"[values\""))).isInstanceOf(InvalidInputException.class)
                .hasMessage("stream_mode: is not a mode or a list of modes");
    }

    @Test
    void eventNamesAreWhatEventsAreNamed() {
        assertThat(StreamMode.eventNames(List.of(StreamMode.MESSAGES_TUPLE, StreamMode.CHECKPOINTS))).containsExactlyInAnyOrder("messages", "checkpoints");
        assertThat(StreamMode.eventNames(List.of(StreamMode.MESSAGES)))
                .containsExactlyInAnyOrder("messages/metadata", "messages/partial", "messages/complete");
    }

    private static JsonNode json(String text) {
        try {
            return JsonCodec.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
