package io.conduit.aisdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.ProtocolRunFollower;
import io.conduit.runs.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The translation of protocol events (their wire shape, as {@code ProtocolEvents} writes them) into UI message stream
 * parts, for the cases a scripted run does not reach: a failed run, a cancelled one, a model call cut mid-message, a
 * tool call whose id comes late, merged text deltas, subgraph events, and nothing after the end.
 */
class UiMessageStreamTest {

    private static final String RUN = "run-1";
    private static final String PLANNER = "planner:t1";
    private long seq;

    private RunEvent event(String method, String ns, String data) {
        seq++;
        String namespace = ns.isEmpty() ? "[]" : "[\"" + ns.replace("|", "\",\"") + "\"]";
        return new RunEvent(seq, RUN, method, ns, "{\"type\":\"event\",\"event_id\":\"" + seq + "\",\"seq\":" + seq + ",\"method\":\"" + method
                + "\",\"params\":{\"namespace\":" + namespace + ",\"timestamp\":0,\"data\":" + data + "}}");
    }

    private RunEvent textDelta(String ns, String key, int index, String text) {
        seq++;
        return RunEvent.withTextIn(seq, RUN, "messages", ns, key, "{\"type\":\"event\",\"event_id\":\"" + seq + "\",\"seq\":" + seq
                + ",\"method\":\"messages\",\"params\":{\"namespace\":[\"" + ns + "\"],\"timestamp\":0,\"data\":{\"event\":\"content-block-delta\",\"index\":"
                + index + ",\"delta\":{\"type\":\"text-delta\",\"text\":\"" + RunEvent.TEXT_SLOT + "\"}}}}", text);
    }

    private RunEvent lifecycle(String how, String extra) {
        return event("lifecycle", "", "{\"event\":\"" + how + "\",\"graph_name\":\"agent\"" + extra + "}");
    }

    private static List<JsonNode> parts(UiMessageStream s, List<RunEvent> events) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (RunEvent e : events) {
            if (!UiMessageStream.wanted(e)) {
                continue;
            }
            for (String frame : s.frames(e).split("\n\n")) {
                if (frame.isEmpty()) {
                    continue;
                }
                assertThat(frame).startsWith("data: ").doesNotContain("\n");
                String data = frame.substring(6);
                out.add(data.equals("[DONE]") ? JsonCodec.MAPPER.getNodeFactory().textNode("[DONE]") : JsonCodec.MAPPER.readTree(data));
            }
        }
        return out;
    }

    private static List<String> types(List<JsonNode> parts) {
        return parts.stream().map(p -> p.isTextual() ? p.asText() : p.path("type").asText()).toList();
    }

    @Test
    void aFailedRunClosesWhatIsOpenThenSaysTheErrorAndFinishes() throws Exception {
        UiMessageStream s = new UiMessageStream(RUN);
        List<JsonNode> parts = parts(s, List.of(
                lifecycle("running", ""),
                event("messages", PLANNER, "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m1\"}"),
                event("messages", PLANNER, "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"text\",\"text\":\"\"}}"),
                textDelta(PLANNER, "m1#0", 0, "Hel\"lo"),
                event("messages", PLANNER, "{\"event\":\"error\",\"message\":\"the model failed\"}"),
                lifecycle("failed", ",\"error\":\"the model failed\"")));
        assertThat(types(parts)).containsExactly("start", "start-step", "text-start", "text-delta", "text-end", "finish-step", "error", "finish", "[DONE]");
        assertThat(parts.get(0).get("messageId").asText()).isEqualTo(RUN);
        assertThat(parts.get(3).get("delta").asText()).isEqualTo("Hel\"lo");
        assertThat(parts.get(3).get("id").asText()).isEqualTo(parts.get(2).get("id").asText());
        assertThat(parts.get(6).get("errorText").asText()).isEqualTo("the model failed");
        assertThat(parts.get(7).get("finishReason").asText()).isEqualTo("error");
        assertThat(s.ended()).isTrue();
        assertThat(s.frames(lifecycle("completed", ""))).isEmpty();
    }

    @Test
    void aCancelledRunAbortsAndAStopWithoutEventsToo() throws Exception {
        assertThat(types(parts(new UiMessageStream(RUN), List.of(lifecycle("running", ""), lifecycle("interrupted", "")))))
                .containsExactly("start", "abort", "[DONE]");
        assertThat(types(parts(new UiMessageStream(RUN), List.of(new RunEvent(0, RUN, ProtocolRunFollower.STOPPED, "", "{}")))))
                .containsExactly("start", "abort", "[DONE]");
    }

    @Test
    void anInterruptIsADataPartAndTheRunFinishes() throws Exception {
        List<JsonNode> parts = parts(new UiMessageStream(RUN), List.of(lifecycle("running", ""),
                event("input.requested", "", "{\"interrupt_id\":\"i1\",\"payload\":{\"question\":\"Which one?\",\"choices\":[\"a\",\"b\"]}}"),
                lifecycle("interrupted", "")));
        assertThat(types(parts)).containsExactly("start", "data-interrupt", "finish", "[DONE]");
        assertThat(parts.get(1).get("id").asText()).isEqualTo("i1");
        assertThat(parts.get(1).at("/data/value/choices/1").asText()).isEqualTo("b");
        assertThat(parts.get(2).get("finishReason").asText()).isEqualTo("other");
    }

    @Test
    void aToolCallWhoseIdComesLateIsAnnouncedWhenItIsKnownAndItsOutputFollows() throws Exception {
        List<JsonNode> parts = parts(new UiMessageStream(RUN), List.of(lifecycle("running", ""),
                event("messages", PLANNER, "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m1\"}"),
                event("messages", PLANNER, "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"tool_call_chunk\",\"id\":null,\"name\":\"recall\",\"args\":\"\"}}"),
                event("messages", PLANNER, "{\"event\":\"content-block-delta\",\"index\":0,\"delta\":{\"type\":\"tool-call-delta\",\"args\":\"{\\\"key\\\":\"}}"),
                event("messages", PLANNER, "{\"event\":\"content-block-delta\",\"index\":0,\"delta\":{\"type\":\"tool-call-delta\",\"args\":\"\\\"cat\\\"}\"}}"),
                event("messages", PLANNER, "{\"event\":\"content-block-finish\",\"index\":0,\"content\":{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"recall\",\"args\":{\"key\":\"cat\"}}}"),
                event("messages", PLANNER, "{\"event\":\"message-finish\",\"reason\":\"tool_calls\"}"),
                event("tools", "tool_executor:t2", "{\"event\":\"tool-started\",\"tool_call_id\":\"c1\",\"tool_name\":\"recall\",\"input\":{\"key\":\"cat\"}}"),
                event("tools", "tool_executor:t2", "{\"event\":\"tool-finished\",\"tool_call_id\":\"c1\",\"output\":\"nothing\"}"),
                event("tools", "tool_executor:t3", "{\"event\":\"tool-finished\",\"tool_call_id\":\"never-shown\",\"output\":1}"),
                event("custom:planning_retry", "", "{\"name\":\"planning_retry\",\"payload\":{\"attempt\":1}}"),
                lifecycle("completed", "")));
        assertThat(types(parts)).containsExactly("start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available",
                "tool-output-available", "data-planning_retry", "finish-step", "finish", "[DONE]");
        assertThat(parts.get(2).get("toolCallId").asText()).isEqualTo("c1");
        assertThat(parts.get(2).get("providerExecuted").asBoolean()).isTrue();
        assertThat(parts.get(3).get("inputTextDelta").asText()).isEqualTo("{\"key\":\"cat\"}");
        assertThat(parts.get(4).at("/input/key").asText()).isEqualTo("cat");
        assertThat(parts.get(5).get("output").asText()).isEqualTo("nothing");
        assertThat(parts.get(6).at("/data/attempt").asInt()).isEqualTo(1);
    }

    @Test
    void aStepLastsUntilTheNextModelCallAndSubgraphEventsAreNotShown() throws Exception {
        List<RunEvent> events = new ArrayList<>(List.of(lifecycle("running", "")));
        for (String id : List.of("m1", "m2")) {
            events.add(event("messages", PLANNER, "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"" + id + "\"}"));
            events.add(event("messages", PLANNER, "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"reasoning\",\"reasoning\":\"\"}}"));
            events.add(textDelta(PLANNER, id + "#0", 0, "hmm"));
            events.add(event("messages", PLANNER, "{\"event\":\"content-block-finish\",\"index\":0,\"content\":{\"type\":\"reasoning\",\"reasoning\":\"hmm\"}}"));
            events.add(event("messages", PLANNER, "{\"event\":\"message-finish\",\"reason\":\"stop\"}"));
        }
        events.add(event("messages", "sub:t9|inner:t10", "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m3\"}"));
        events.add(lifecycle("completed", ""));
        List<JsonNode> parts = parts(new UiMessageStream(RUN), events);
        assertThat(types(parts)).containsExactly("start", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end",
                "finish-step", "start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "finish-step", "finish", "[DONE]");
        assertThat(parts.get(2).get("id").asText()).isNotEqualTo(parts.get(7).get("id").asText());
    }

    @Test
    void mergedTextDeltasAreCopiedAsTheyAreEscaped() throws Exception {
        UiMessageStream s = new UiMessageStream(RUN);
        parts(s, List.of(lifecycle("running", ""),
                event("messages", PLANNER, "{\"event\":\"message-start\",\"role\":\"ai\",\"id\":\"m1\"}"),
                event("messages", PLANNER, "{\"event\":\"content-block-start\",\"index\":0,\"content\":{\"type\":\"text\",\"text\":\"\"}}")));
        // what a slow subscriber's outbox makes of two deltas: one event, the texts joined in the text's place
        RunEvent a = textDelta(PLANNER, "m1#0", 0, "a \\ b\n");
        RunEvent b = textDelta(PLANNER, "m1#0", 0, "é ✓");
        String merged = a.data().substring(0, a.text().start()) + a.data().substring(a.text().start(), a.text().end())
                + b.data().substring(b.text().start(), b.text().end()) + a.data().substring(a.text().end());
        RunEvent both = new RunEvent(b.seq(), RUN, "messages", PLANNER, merged,
                new io.conduit.runs.TextDelta("m1#0", a.text().start(), a.text().end() + b.text().end() - b.text().start()));
        List<JsonNode> parts = parts(s, List.of(both));
        assertThat(types(parts)).containsExactly("text-delta");
        assertThat(parts.get(0).get("delta").asText()).isEqualTo("a \\ b\né ✓");
    }
}
