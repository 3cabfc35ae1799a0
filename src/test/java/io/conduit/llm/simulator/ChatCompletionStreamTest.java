package io.conduit.llm.simulator;

import static io.conduit.llm.simulator.Requests.body;
import static io.conduit.llm.simulator.Requests.round;
import static io.conduit.llm.simulator.Requests.system;
import static io.conduit.llm.simulator.Requests.user;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stream, read frame by frame as OpenAI's clients read it. */
@QuarkusTest
class ChatCompletionStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<JsonNode> stream(String body, String accept) throws Exception {
        String sse = given().contentType("application/json").accept(accept).body(body)
                .when().post("/simulator/v1/chat/completions")
                .then().statusCode(200).contentType("text/event-stream")
                .extract().asString();
        return SseFrames.chunks(sse);
    }

    @Test
    void aTextAnswerStreamsWordByWordInOneConsistentCompletion() throws Exception {
        List<JsonNode> chunks = stream(body(true, false, user("hello there")), "application/json");

        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.get("id").asText()).isEqualTo(chunks.get(0).get("id").asText());
            assertThat(c.get("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.get("created").asLong()).isEqualTo(chunks.get(0).get("created").asLong());
            assertThat(c.get("model").asText()).isEqualTo("sim-test");
            assertThat(c.has("usage")).as("no usage unless asked for").isFalse();
            assertThat(c.get("choices")).hasSize(1);
            assertThat(c.get("choices").get(0).get("index").asInt()).isZero();
        });
        assertThat(chunks.get(0).get("id").asText()).startsWith("chatcmpl-");
        JsonNode first = chunks.get(0).get("choices").get(0).get("delta");
        assertThat(first.get("role").asText()).isEqualTo("assistant");

        String expected = "This is the Conduit simulator, not a real model. You said: hello there";
        assertThat(SseFrames.text(chunks, "content")).isEqualTo(expected);
        long contentDeltas = chunks.stream().map(c -> c.get("choices").get(0).get("delta").path("content").asText(""))
                .filter(s -> !s.isEmpty()).count();
        assertThat(contentDeltas).as("one delta per word").isEqualTo(expected.split(" ").length);

        for (int i = 0; i < chunks.size() - 1; i++) {
            assertThat(chunks.get(i).get("choices").get(0).get("finish_reason").isNull()).as("chunk %d", i).isTrue();
        }
        JsonNode last = chunks.get(chunks.size() - 1).get("choices").get(0);
        assertThat(last.get("finish_reason").asText()).isEqualTo("stop");
        assertThat(last.get("delta").isEmpty()).isTrue();
    }

    @Test
    void parallelToolCallsOpenWithIdTypeAndNameThenStreamTheirArguments() throws Exception {
        List<JsonNode> chunks = stream(body(true, true, user("Please plan my week")), "text/event-stream");

        assertThat(chunks.get(0).get("choices").get(0).get("delta").get("role").asText()).isEqualTo("assistant");
        Map<Integer, JsonNode> opened = new LinkedHashMap<>();
        Map<Integer, StringBuilder> arguments = new LinkedHashMap<>();
        List<Integer> order = new ArrayList<>();
        for (JsonNode c : chunks) {
            for (JsonNode call : c.get("choices").get(0).get("delta").path("tool_calls")) {
                int index = call.get("index").asInt();
                order.add(index);
                if (!opened.containsKey(index)) {
                    assertThat(call.get("id").asText()).as("first delta of call %d", index).startsWith("call_");
                    assertThat(call.get("type").asText()).isEqualTo("function");
                    assertThat(call.get("function").get("arguments").asText()).isEmpty();
                    opened.put(index, call);
                    arguments.put(index, new StringBuilder());
                } else {
                    assertThat(call.has("id")).as("later deltas of call %d carry no id", index).isFalse();
                    assertThat(call.get("function").has("name")).isFalse();
                    arguments.get(index).append(call.get("function").get("arguments").asText());
                }
            }
        }
        assertThat(opened.keySet()).containsExactly(0, 1);
        assertThat(order).as("each call streams completely before the next opens").isSorted();
        assertThat(opened.get(0).get("function").get("name").asText()).isEqualTo("get_current_time");
        assertThat(opened.get(1).get("function").get("name").asText()).isEqualTo("recall");
        assertThat(opened.get(0).get("id").asText()).isNotEqualTo(opened.get(1).get("id").asText());
        assertThat(JSON.readTree(arguments.get(0).toString())).isEqualTo(JSON.readTree("{\"timezone\":\"UTC\"}"));
        assertThat(JSON.readTree(arguments.get(1).toString())).isEqualTo(JSON.readTree("{\"key\":\"week\"}"));
        assertThat(SseFrames.text(chunks, "content")).isEmpty();
        assertThat(chunks.get(chunks.size() - 1).get("choices").get(0).get("finish_reason").asText()).isEqualTo("tool_calls");
    }

    @Test
    void usageComesLastWithNoChoicesAndAddsUp() throws Exception {
        String request = "{\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":["
                + system("Be brief.") + "," + user("one two three") + "]}";
        List<JsonNode> chunks = stream(request, "*/*");

        JsonNode usageChunk = chunks.get(chunks.size() - 1);
        assertThat(usageChunk.get("choices")).isEmpty();
        assertThat(usageChunk.get("id").asText()).isEqualTo(chunks.get(0).get("id").asText());
        JsonNode usage = usageChunk.get("usage");
        assertThat(usage.get("prompt_tokens").asInt()).as("words of the prompt").isEqualTo(5);
        String answer = SseFrames.text(chunks, "content");
        assertThat(usage.get("completion_tokens").asInt()).as("words of the answer").isEqualTo(answer.split(" ").length);
        assertThat(usage.get("total_tokens").asInt()).isEqualTo(usage.get("prompt_tokens").asInt() + usage.get("completion_tokens").asInt());
        assertThat(SseFrames.choiceChunks(chunks)).hasSize(chunks.size() - 1)
                .allSatisfy(c -> assertThat(c.get("usage").isNull()).as("usage: null on choice chunks, as OpenAI").isTrue());
        assertThat(chunks.get(chunks.size() - 2).get("choices").get(0).get("finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void roundsFollowTheAssistantToolCallsSinceTheLastUserMessage() throws Exception {
        String ask = user("What do you know about my pizza?");
        List<JsonNode> first = stream(body(true, true, ask), "*/*");
        assertThat(toolCalls(first)).containsExactly("recall {\"key\":\"pizza\"}");

        // the first recall found nothing: the re-plan calls it again, under another key
        List<JsonNode> second = stream(body(true, true, ask, round("call_1", "recall", "")), "*/*");
        assertThat(toolCalls(second)).containsExactly("recall {\"key\":\"favourite_pizza\"}");

        List<JsonNode> answer = stream(body(true, true, ask, round("call_1", "recall", ""), round("call_2", "recall", "")), "*/*");
        assertThat(toolCalls(answer)).isEmpty();
        assertThat(SseFrames.text(answer, "content")).startsWith("I looked for your pizza in my memory twice");

        // without tools (a generator's call), the answer comes at once
        List<JsonNode> noTools = stream(body(true, false, ask), "*/*");
        assertThat(SseFrames.text(noTools, "content")).startsWith("I looked for your pizza");

        // an earlier turn's rounds do not count: only those after the last user message
        List<JsonNode> nextTurn = stream(body(true, true, user("what do you know about my tea"), round("call_1", "recall", "green"),
                "{\"role\":\"assistant\",\"content\":\"ok\"}", ask), "*/*");
        assertThat(toolCalls(nextTurn)).containsExactly("recall {\"key\":\"pizza\"}");
    }

    @Test
    void groupsTheUserTypedStayValidJsonInTheArguments() throws Exception {
        List<JsonNode> chunks = stream(body(true, true, user("remember that my motto is \"be \\ kind\"")), "*/*");
        assertThat(toolCalls(chunks)).containsExactly("remember {\"key\":\"motto\",\"value\":\"\\\"be \\\\ kind\\\"\"}");
    }

    @Test
    void aSummarizationRequestGetsASummaryOfWhatTheUserSaid() throws Exception {
        String transcript = "Conversation:\nUser: Please plan my week with care\nAssistant: Here is a plan [called recall]\n"
                + "User: And remember that my name is Ada.";
        List<JsonNode> chunks = stream(body(true, false, system("You summarize conversations for an assistant."), user(transcript)), "*/*");
        assertThat(SseFrames.text(chunks, "content"))
                .isEqualTo("Summary: Please plan my week with care; And remember that my name is Ada.");

        // an ordinary system prompt that quotes an earlier summary further down is not a summarization request
        List<JsonNode> turn = stream(body(true, true, system("You are a helpful assistant.\n\nSummary of the earlier conversation:\nx"),
                user("plan my day")), "*/*");
        assertThat(toolCalls(turn)).hasSize(2);
    }

    /** The tool calls of a stream, as "name arguments", arguments re-serialized compactly. */
    private static List<String> toolCalls(List<JsonNode> chunks) throws Exception {
        Map<Integer, String> names = new LinkedHashMap<>();
        Map<Integer, StringBuilder> args = new LinkedHashMap<>();
        for (JsonNode c : SseFrames.choiceChunks(chunks)) {
            for (JsonNode call : c.get("choices").get(0).get("delta").path("tool_calls")) {
                int i = call.get("index").asInt();
                if (call.get("function").has("name")) {
                    names.put(i, call.get("function").get("name").asText());
                }
                args.computeIfAbsent(i, k -> new StringBuilder()).append(call.get("function").path("arguments").asText(""));
            }
        }
        List<String> out = new ArrayList<>();
        for (var e : names.entrySet()) {
            out.add(e.getValue() + " " + JSON.readTree(args.get(e.getKey()).toString()));
        }
        return out;
    }
}
