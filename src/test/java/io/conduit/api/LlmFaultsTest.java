package io.conduit.api;

import static io.conduit.llm.OpenAiChunks.content;
import static io.conduit.llm.OpenAiChunks.finish;
import static io.conduit.llm.OpenAiChunks.role;
import static io.conduit.llm.OpenAiChunks.usage;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.llm.OpenAiChunks;
import io.conduit.llm.ProviderStub;
import io.conduit.llm.ProviderStub.Cut;
import io.conduit.llm.ProviderStub.Hang;
import io.conduit.llm.ProviderStub.Stall;
import io.conduit.llm.ProviderStub.Status;
import io.conduit.llm.ProviderStub.Stream;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model's faults as a client of the service sees them: the model is a stub speaking OpenAI's streaming format
 * ({@link ModelStub}), each run is made with {@code POST /threads/{id}/runs/stream} and read by a real SSE client.
 * Before the first token a fault is retried and the run succeeds; after it, or once the retries are spent, the stream
 * ends with an {@code error} event (a code and a sentence, no stack trace), the run is recorded {@code error}, the
 * tokens already sent arrived once, and the thread takes its next run.
 */
@QuarkusTest
@QuarkusTestResource(value = ModelStub.class, restrictToAnnotatedClass = true)
class LlmFaultsTest {

    private static final String ANSWER = "All good here.";
    /** A chunk cut off in the middle of its JSON. */
    private static final String TRUNCATED = "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":";

    @ModelStub.Stub
    ProviderStub stub;

    @BeforeEach
    void freshScript() {
        stub.reset();
    }

    private static Stream answer(String... tokens) {
        List<String> frames = new ArrayList<>(List.of(role()));
        for (String t : tokens) {
            frames.add(content(t));
        }
        frames.add(finish("stop"));
        frames.add(usage(5, tokens.length));
        return new Stream(frames, true);
    }

    private static Stream ok() {
        return answer("All ", "good ", "here.");
    }

    @Test
    void aRateLimitBeforeTheFirstTokenIsRetriedAndTheRunSucceeds() {
        stub.then(new Status(429, OpenAiChunks.error("Rate limit reached", "requests", "rate_limit_exceeded"))).then(ok());

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-429"), "hello");

        turn.succeeded(ANSWER);
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aServerErrorBeforeTheFirstTokenIsRetriedAndTheRunSucceeds() {
        stub.then(new Status(500, OpenAiChunks.error("upstream exploded", "server_error", null)))
                .then(new Status(503, "")).then(ok());

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-500"), "hello");

        turn.succeeded(ANSWER);
        assertThat(stub.requests()).hasSize(3);
    }

    @Test
    void aServerErrorOnEveryAttemptFailsTheRunClearlyAndTheThreadGoesOn() {
        stub.then(new Status(500, OpenAiChunks.error("upstream exploded", "server_error", null)))
                .then(new Status(500, OpenAiChunks.error("upstream exploded", "server_error", null)))
                .then(new Status(500, OpenAiChunks.error("upstream exploded", "server_error", null)))
                .then(ok());
        String thread = Api.newThread("llm-500s");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains("HTTP 500").contains("upstream exploded").contains("3 attempts");
        assertThat(turn.tokens()).isEmpty();
        assertThat(stub.requests()).hasSize(3);
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aClientErrorIsNotRetriedAndFailsTheRunWithTheProvidersMessage() {
        stub.then(new Status(401, OpenAiChunks.error("Incorrect API key provided", "invalid_request_error", "invalid_api_key")));

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-401"), "hello");

        turn.failed().isEqualTo("node planner failed: openai: HTTP 401: Incorrect API key provided");
        assertThat(stub.requests()).hasSize(1);
    }

    @Test
    void aConnectionCutAfterTokensEndsTheStreamWithAnErrorAndKeepsTheTokensSentOnce() {
        stub.then(new Cut(List.of(role(), content("Half "), content("an answer")))).then(ok());
        String thread = Api.newThread("llm-cut");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains("not retried");
        assertThat(turn.tokens()).containsExactly("Half ", "an answer");
        assertThat(stub.requests()).hasSize(1);
        assertThat(Api.contents(Api.state(thread).path("values"))).as("the failed step wrote nothing").containsExactly("hello");
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
        assertThat(Api.contents(Api.state(thread).path("values"))).containsExactly("hello", "again", ANSWER);
    }

    @Test
    void aConnectionCutBeforeTheFirstTokenIsRetriedAndTheRunSucceeds() {
        stub.then(new Cut(List.of(role()))).then(ok());

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-cut-early"), "hello");

        turn.succeeded(ANSWER);
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aModelThatFallsSilentAfterTokensFailsTheRunAfterTheTimeout() {
        stub.then(new Stall(List.of(role(), content("Half "), content("an answer")))).then(ok());
        String thread = Api.newThread("llm-stall");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains(ModelStub.SILENCE).contains("not retried");
        assertThat(turn.tokens()).containsExactly("Half ", "an answer");
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aModelSilentBeforeTheFirstTokenIsRetriedAndTheRunSucceeds() {
        stub.then(new Stall(List.of(role()))).then(ok());

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-stall-early"), "hello");

        turn.succeeded(ANSWER);
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aModelThatNeverAnswersTheRequestIsRetriedAndTheRunSucceeds() {
        stub.then(new Hang()).then(ok());

        StreamedTurn.on(Api.newThread("llm-hang"), "hello").succeeded(ANSWER);

        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aModelSilentOnEveryAttemptFailsTheRunAfterTheRetries() {
        stub.then(new Stall(List.of(role())));
        String thread = Api.newThread("llm-stall-all");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains(ModelStub.SILENCE).contains("3 attempts");
        assertThat(stub.requests()).hasSize(3);
        stub.reset();
        stub.then(ok());
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aMalformedChunkAfterTokensEndsTheStreamWithAnErrorOnOneLine() {
        stub.then(new Stream(List.of(role(), content("Half "), TRUNCATED, finish("stop")), true)).then(ok());
        String thread = Api.newThread("llm-malformed");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains("a chunk of the stream could not be read (Unexpected end-of-input")
                .contains("not retried").doesNotContain("langchain4j");
        assertThat(turn.tokens()).containsExactly("Half ");
        assertThat(stub.requests()).hasSize(1);
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aMalformedChunkBeforeTheFirstTokenIsRetriedAndTheRunSucceeds() {
        stub.then(new Stream(List.of("not json at all", finish("stop")), true)).then(ok());

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-malformed-first"), "hello");

        turn.succeeded(ANSWER);
        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aMalformedChunkOnEveryAttemptFailsTheRunWithAClearError() {
        stub.then(new Stream(List.of(role(), TRUNCATED, finish("stop")), true));

        StreamedTurn turn = StreamedTurn.on(Api.newThread("llm-malformed-all"), "hello");

        turn.failed().contains("a chunk of the stream could not be read").contains("3 attempts");
        assertThat(turn.tokens()).isEmpty();
        assertThat(stub.requests()).hasSize(3);
    }

    @Test
    void runsWaitAnswersAFaultAfterTokensWithTheErrorAndTheThreadGoesOn() {
        stub.then(new Cut(List.of(role(), content("Half "), content("an answer")))).then(ok());
        String thread = Api.newThread("llm-wait");

        JsonNode answer = Api.tree(given().contentType("application/json").body(Api.run("hello"))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200).extract().asString());

        assertThat(answer.path("__error__").path("error").asText()).isEqualTo("node_failed");
        assertThat(answer.path("__error__").path("message").asText())
                .isEqualTo("node planner failed: openai: connection failed: closed (after output had started; not retried)");
        String run = given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().path("[0].run_id");
        assertThat(Api.status(thread, run)).isEqualTo("error");
        try (SseClient rejoined = SseClient.get("/threads/" + thread + "/runs/" + run + "/stream")) {
            assertThat(rejoined.toEnd(Duration.ofSeconds(30)).getLast().data()).as("a client that rejoins reads the same error")
                    .isEqualTo(answer.path("__error__"));
        }
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aFaultAfterAToolCallKeepsTheStepsBeforeIt() {
        stub.then(new Stream(List.of(role(), OpenAiChunks.toolCallStart(0, "call_1", "get_current_time"),
                        OpenAiChunks.toolCallArguments(0, "{}"), finish("tool_calls"), usage(5, 2)), true))
                .then(new Cut(List.of(role(), content("It is "), content("noon")))).then(ok());
        String thread = Api.newThread("llm-after-tool");

        StreamedTurn turn = StreamedTurn.on(thread, "what time is it?");

        turn.failed().contains("not retried");
        assertThat(turn.tokens()).containsExactly("It is ", "noon");
        JsonNode messages = Api.state(thread).path("values").path("messages");
        assertThat(messages).extracting(m -> m.path("type").asText()).as("the tool step was stored").containsExactly("human", "ai", "tool");
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }
}
