package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run's spec is stored, and answered by the API, as the {@code kwargs} object the submission stored before it was
 * typed: LangGraph's clients read it back, and records stored by older versions must read as they were.
 */
class RunSpecJsonTest {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private static final Map<String, Object> MERGED_CONFIG = Map.of("configurable", Map.of("user_id", "u1", "retry_budget", 2), "tags", List.of("t"));

    @Test
    void aRequestIsRecordedAsTheMapTheSubmissionStoredBefore() {
        String body = """
                {"assistant_id": "agent", "input": {"messages": [{"role": "user", "content": "hi", "extra": null}]},
                 "stream_mode": ["messages-tuple", "updates", "messages"], "metadata": {"k": [1, 2.5]}, "webhook": null,
                 "config": {"configurable": {"user_id": "u1"}, "tags": ["t"]}, "durability": "exit", "interrupt_before": "*",
                 "checkpoint": {"checkpoint_id": "c1", "checkpoint_ns": ""}, "multitask_strategy": "enqueue",
                 "__protocol_stream_run": true, "after_seconds": 0}""";
        RunSpec spec = served(body, false);
        assertThat(RunSpecJson.toKwargs(spec)).isEqualTo(legacyKwargs(body, List.of("messages-tuple", "updates", "messages"), false));
        assertThat(spec.modes()).containsExactly(StreamMode.MESSAGES_TUPLE, StreamMode.UPDATES, StreamMode.MESSAGES);
        assertThat(spec.durability()).isEqualTo(RunSpec.Durability.EXIT);
        assertThat(spec.fork()).contains(new RunSpec.Fork("checkpoint.checkpoint_id", "c1"));
        assertThat(spec.configurable()).containsEntry("user_id", "u1");
        assertThat(spec.deletesThread()).isFalse();
        assertThat(spec.others()).containsOnlyKeys("metadata", "webhook", "multitask_strategy", "__protocol_stream_run", "after_seconds");
    }

    @Test
    void aStatelessRequestIsRecordedTemporaryWithTheDefaultModeAndItsThreadGoesUnlessKept() {
        String body = """
                {"assistant_id": "agent", "input": null, "command": {"update": {"note": "x"}}, "checkpoint_id": "c2", "context": {"user_id": "u1"}}""";
        RunSpec spec = served(body, true);
        assertThat(RunSpecJson.toKwargs(spec)).isEqualTo(legacyKwargs(body, List.of("values"), true));
        assertThat(spec.modes()).containsExactly(StreamMode.VALUES);
        assertThat(spec.temporary()).isTrue();
        assertThat(spec.deletesThread()).isTrue();
        assertThat(spec.input().isNull()).as("a JSON null given stays given").isTrue();
        assertThat(spec.fork()).contains(new RunSpec.Fork("checkpoint_id", "c2"));
        String kept = body.replace("\"command\"", "\"on_completion\": \"keep\", \"command\"");
        assertThat(served(kept, true).deletesThread()).isFalse();
        assertThat(RunSpecJson.toKwargs(served(kept, true))).isEqualTo(legacyKwargs(kept, List.of("values"), true));
    }

    @Test
    void theServersFieldsAreNotTakenFromTheClient() {
        RunSpec spec = RunSpecJson.fromRequest(json("{\"assistant_id\": \"a\", \"graph_id\": 7, \"temporary\": true}"));
        assertThat(spec.graphId()).isNull();
        assertThat(spec.temporary()).as("a client's temporary would have deleted its own thread").isFalse();
        assertThat(RunSpecJson.toKwargs(spec)).containsOnlyKeys("stream_mode");
    }

    @Test
    void aSpecReadsBackFromItsStoredTextAsItWasAndWritesTheSameObject() {
        for (boolean stateless : new boolean[]{false, true}) {
            RunSpec spec = served("""
                    {"assistant_id": "agent", "input": {"messages": [{"role": "user", "content": "hé \\"x\\""}], "n": 12345678901},
                     "stream_mode": "events", "on_completion": "keep", "durability": "sync", "interrupt_after": ["planner"],
                     "feedback_keys": ["a"], "nested": {"k": [true, null, 1.5]}}""", stateless);
            Map<String, Object> stored = JsonMaps.decode(JsonMaps.encode(RunSpecJson.toKwargs(spec))); // as a store keeps it
            RunSpec read = RunSpecJson.fromKwargs(stored);
            assertThat(read).isEqualTo(spec);
            assertThat(RunSpecJson.toKwargs(read)).isEqualTo(stored);
        }
    }

    @Test
    void oldRecordsWithKeysMissingReadWithTheDefaultsAndAnswerAsStored() {
        List<Map<String, Object>> old = List.of(
                Map.of(),
                Map.of("input", Map.of("n", 1)),
                Map.of("graph_id", "agent", "stream_mode", List.of("values", "updates"), "n", 3),
                Map.of("graph_id", "agent", "temporary", true, "config", Map.of()),
                Map.of("command", Map.of("resume", "yes"), "checkpoint", Map.of("checkpoint_ns", "")));
        for (Map<String, Object> kwargs : old) {
            RunSpec spec = RunSpecJson.fromKwargs(kwargs);
            assertThat(RunSpecJson.toKwargs(spec)).as("%s", kwargs).isEqualTo(kwargs);
            assertThat(spec.modes()).isNotEmpty();
            assertThat(spec.fork()).isEmpty();
            assertThat(spec.configurable()).isEmpty();
        }
        RunSpec none = RunSpecJson.fromKwargs(Map.of());
        assertThat(none).isEqualTo(RunSpec.NONE);
        assertThat(none.modes()).containsExactly(StreamMode.VALUES);
        assertThat(none.deletesThread()).isFalse();
        assertThat(none.durability()).isNull();
        assertThat(RunSpecJson.fromKwargs(Map.of("graph_id", "agent", "temporary", true)).deletesThread()).isTrue();
        // before stream_mode was stored as a list, one mode was a string: it reads as that mode
        assertThat(RunSpecJson.fromKwargs(Map.of("stream_mode", "messages")).modes()).containsExactly(StreamMode.MESSAGES);
    }

    @Test
    void badFieldsAreRefusedNamingThem() {
        Map<String, String> bad = new HashMap<>();
        bad.put("{\"stream_mode\": \"telepathy\"}", "stream_mode");
        bad.put("{\"durability\": \"forever\"}", "durability");
        bad.put("{\"durability\": 1}", "durability");
        bad.put("{\"on_completion\": \"archive\"}", "on_completion");
        bad.put("{\"config\": \"fast\"}", "config");
        bad.put("{\"context\": [1]}", "context");
        bad.put("{\"checkpoint_id\": 5}", "checkpoint_id");
        bad.put("{\"checkpoint\": {\"checkpoint_id\": 5}}", "checkpoint.checkpoint_id");
        bad.forEach((body, field) -> assertThatThrownBy(() -> RunSpecJson.fromRequest(json(body))).as(body)
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo(field)));
        assertThatThrownBy(() -> RunSpecJson.fromRequest(json("{\"durability\": \"forever\"}")))
                .hasMessage("durability: must be one of async, sync, exit");
        assertThatThrownBy(() -> RunSpecJson.fromRequest(json("{\"on_completion\": \"archive\"}")))
                .hasMessage("on_completion: must be one of delete, keep");
    }

    /** The spec of a request as the submission serves it on graph {@code agent}, with an assistant's config merged. */
    private static RunSpec served(String body, boolean stateless) {
        return RunSpecJson.fromRequest(json(body)).served("agent", MERGED_CONFIG, stateless);
    }

    /** The map the submission built from the body before the spec was typed (its code, as it was, given its modes). */
    private static Map<String, Object> legacyKwargs(String body, List<String> modes, boolean stateless) {
        Map<String, Object> kwargs = JsonCodec.MAPPER.convertValue(json(body), MAP);
        kwargs.put("graph_id", "agent");
        kwargs.put("stream_mode", modes);
        if (stateless) {
            kwargs.put("temporary", true);
        }
        kwargs.remove("assistant_id");
        kwargs.put("config", MERGED_CONFIG);
        return kwargs;
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JsonCodec.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
