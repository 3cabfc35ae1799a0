package io.conduit.llm;

import static io.conduit.llm.MistralChunks.call;
import static io.conduit.llm.MistralChunks.content;
import static io.conduit.llm.MistralChunks.last;
import static io.conduit.llm.TestModels.completed;
import static io.conduit.llm.TestModels.failure;
import static io.conduit.llm.TestModels.run;
import static io.conduit.llm.TestModels.tokens;
import static io.conduit.llm.TestModels.toolCallDeltas;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolSpec;
import io.conduit.llm.ProviderStub.Cut;
import io.conduit.llm.ProviderStub.Status;
import io.conduit.llm.ProviderStub.Stream;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The mistral provider against a stub speaking Mistral's streaming wire format; plain LangChain4j, no Quarkus. */
class MistralStreamingTest {

    private ProviderStub stub;
    private LangChain4jModel model;

    @BeforeEach
    void start() throws Exception {
        stub = ProviderStub.start();
        model = TestModels.model(LlmProvider.MISTRAL, stub, "mistral-test");
    }

    @AfterEach
    void stop() throws Exception {
        stub.close();
    }

    @Test
    void textStreamsAsTokensWithUsageFromTheLastChunk() {
        stub.then(new Stream(List.of(content("Bon", true), content("jour", false), last("stop", 9, 2)), true));

        List<ModelEvent> events = run(model.stream(TestModels.question("salut")));

        assertThat(tokens(events)).containsExactly("Bon", "jour");
        ModelResponse response = completed(events);
        assertThat(response.text()).isEqualTo("Bonjour");
        assertThat(response.provider()).isEqualTo("mistral");
        assertThat(response.model()).isEqualTo(MistralChunks.MODEL);
        assertThat(response.inputTokens()).isEqualTo(9);
        assertThat(response.outputTokens()).isEqualTo(2);
        assertThat(response.finishReason()).isEqualTo("stop");
        assertThat(response.estimatedCostUsd()).isCloseTo((9 * 2.0 + 2 * 8.0) / 1_000_000, within(1e-12));
    }

    @Test
    void aToolCallArrivesCompleteInOneDelta() {
        stub.then(new Stream(List.of(
                MistralChunks.toolCalls(call("D681PevKs", "weather", "{\"city\": \"Paris\"}")),
                last("tool_calls", 40, 12)), true));

        List<ModelEvent> events = run(model.stream(TestModels.conversation()));

        ModelResponse response = completed(events);
        assertThat(response.toolCalls()).containsExactly(new ToolCall("D681PevKs", "weather", "{\"city\": \"Paris\"}"));
        assertThat(response.finishReason()).isEqualTo("tool_calls");
        assertThat(response.text()).isEmpty();
        assertThat(response.timeToFirstTokenMillis()).isEqualTo(-1);
        // streamed as Mistral sends it: the whole call in one piece
        assertThat(toolCallDeltas(events)).containsExactly(new ModelEvent.ToolCallDelta(0, "D681PevKs", "weather", "{\"city\": \"Paris\"}"));
    }

    @Test
    void parallelCallsAreStreamedAsTheirChunkArrivesAndACallWithoutAnIdGetsTheSameIdInItsDeltaAndTheResponse() {
        JsonObject noId = call("x", "time", "{\"zone\": \"CET\"}").put("index", 1);
        noId.remove("id");
        stub.then(new Cut(List.of(
                MistralChunks.toolCalls(call("D681PevKs", "weather", "{\"city\": \"Paris\"}"), noId))));
        List<ModelEvent> seen = new CopyOnWriteArrayList<>();

        failure(model.stream(TestModels.conversation()), seen);

        // the connection broke before the end: what was seen came from the chunk itself
        assertThat(toolCallDeltas(seen)).extracting(ModelEvent.ToolCallDelta::index, ModelEvent.ToolCallDelta::name,
                ModelEvent.ToolCallDelta::argumentsDelta).containsExactly(
                tuple(0, "weather", "{\"city\": \"Paris\"}"), tuple(1, "time", "{\"zone\": \"CET\"}"));

        stub.then(new Stream(List.of(MistralChunks.toolCalls(noId), last("tool_calls", 40, 12)), true));
        List<ModelEvent> events = run(model.stream(TestModels.conversation()));
        String id = toolCallDeltas(events).getFirst().id();
        assertThat(id).matches("[a-zA-Z0-9]{9}");
        assertThat(completed(events).toolCalls()).containsExactly(new ToolCall(id, "time", "{\"zone\": \"CET\"}"));
    }

    @Test
    void theRequestCarriesModelTemperatureToolsAndTheMappedConversation() {
        stub.then(new Stream(List.of(content("ok", true), last("stop", 1, 1)), true));

        run(model.stream(TestModels.conversation()));

        JsonObject body = stub.requests().getFirst();
        assertThat(body.getString("model")).isEqualTo("mistral-test");
        assertThat(body.getDouble("temperature")).isEqualTo(0.3);
        assertThat(body.getBoolean("stream")).isTrue();
        JsonArray messages = body.getJsonArray("messages");
        assertThat(messages.stream().map(m -> ((JsonObject) m).getString("role")))
                .containsExactly("system", "user", "assistant", "tool", "user");
        JsonObject call = messages.getJsonObject(2).getJsonArray("tool_calls").getJsonObject(0);
        assertThat(call.getString("id")).isEqualTo("call_1");
        assertThat(call.getJsonObject("function").getString("name")).isEqualTo("weather");
        assertThat(messages.getJsonObject(3).getString("tool_call_id")).isEqualTo("call_1");
        JsonObject parameters = body.getJsonArray("tools").getJsonObject(0).getJsonObject("function").getJsonObject("parameters");
        assertThat(parameters.getJsonArray("required").getList()).containsExactly("city");
        assertThat(parameters.getJsonObject("properties").getJsonObject("unit").getJsonArray("enum").getList())
                .containsExactly("celsius", "fahrenheit");
    }

    @Test
    void aRateLimitBeforeAnyOutputIsRetried() {
        stub.then(new Status(429, "{\"object\":\"error\",\"message\":\"Requests rate limit exceeded\",\"type\":\"rate_limited\"}"))
                .then(new Stream(List.of(content("done", true), last("stop", 1, 1)), true));

        List<ModelEvent> events = run(model.stream(TestModels.question("hi")));

        assertThat(completed(events).text()).isEqualTo("done");
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aRateLimitOnEveryAttemptNamesProviderStatusAndMessage() {
        stub.then(new Status(429, "{\"object\":\"error\",\"message\":\"Requests rate limit exceeded\",\"type\":\"rate_limited\"}"));

        Throwable failure = failure(model.stream(TestModels.question("hi")));

        assertThat(failure).isInstanceOf(ModelException.class)
                .hasMessageContaining("mistral: HTTP 429: Requests rate limit exceeded");
        assertThat(stub.requests()).hasSize(3);
    }

    @Test
    void anErrorObjectInTheStreamFailsInsteadOfBeingSkipped() {
        stub.then(new Stream(List.of(content("Par", true),
                "{\"object\":\"error\",\"message\":\"Service tier capacity exceeded\",\"type\":\"service_tier_capacity_exceeded\",\"code\":\"3505\"}"), false));

        Throwable failure = failure(model.stream(TestModels.question("hi")));

        assertThat(failure).isInstanceOf(ModelException.class)
                .hasMessageContaining("mistral")
                .hasMessageContaining("Service tier capacity exceeded");
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void aChunkThatCannotBeReadFailsTheCallInsteadOfBeingSkipped() {
        stub.then(new Stream(List.of(content("Half ", true), "{\"id\":\"cmpl-1\",\"choices\":[{\"delta\":{\"content\":",
                content("answer", false), last("stop", 1, 2)), true));
        List<ModelEvent> seen = new CopyOnWriteArrayList<>();

        Throwable failure = failure(model.stream(TestModels.question("hi")), seen);

        // LangChain4j's parser logged the listener's exception and read on: the call "completed" with "Half answer"
        assertThat(tokens(seen)).containsExactly("Half ");
        assertThat(failure).isInstanceOf(ModelException.class)
                .hasMessageContaining("mistral: a chunk of the stream could not be read (Unexpected end-of-input")
                .hasMessageContaining("not retried");
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void aChunkThatCannotBeReadBeforeAnyOutputIsRetried() {
        stub.then(new Stream(List.of("not json", last("stop", 1, 0)), true))
                .then(new Stream(List.of(content("done", true), last("stop", 1, 1)), true));

        List<ModelEvent> events = run(model.stream(TestModels.question("hi")));

        assertThat(completed(events).text()).isEqualTo("done");
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aStreamThatClosesBeforeDoneFailsInsteadOfHanging() {
        stub.then(new Stream(List.of(content("Half", true)), false));

        Throwable failure = failure(model.stream(TestModels.question("hi")));

        assertThat(failure).isInstanceOf(ModelException.class)
                .hasMessageContaining("mistral")
                .hasMessageContaining("before [DONE]");
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void aToolWithABadSchemaFailsTheCallBeforeAnythingIsSent() {
        ModelRequest request = new ModelRequest(ModelRole.PLANNER, TestModels.question("hi").messages(),
                List.of(new ToolSpec("lookup", "Looks things up", "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"text\"}}}")));

        Throwable failure = failure(model.stream(request));

        assertThat(failure).isInstanceOf(ModelException.class)
                .hasMessage("mistral: bad request: tool 'lookup': parameter schema at $.properties.q: unsupported type 'text'");
        assertThat(stub.requests()).isEmpty();
    }
}
