package io.conduit.api;

import static io.conduit.llm.MistralChunks.content;
import static io.conduit.llm.MistralChunks.last;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.llm.OpenAiChunks;
import io.conduit.llm.ProviderStub;
import io.conduit.llm.ProviderStub.Cut;
import io.conduit.llm.ProviderStub.Stall;
import io.conduit.llm.ProviderStub.Status;
import io.conduit.llm.ProviderStub.Stream;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LlmFaultsTest}'s faults on the mistral provider, whose client (LangChain4j's, over the JDK's HTTP client)
 * reads the stream its own way: a stream that closes before {@code [DONE]} would leave it waiting, were it not
 * guarded.
 */
@QuarkusTest
@QuarkusTestResource(value = ModelStub.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = "provider", value = "mistral"))
class MistralFaultsTest {

    private static final String ANSWER = "All good here.";

    @ModelStub.Stub
    ProviderStub stub;

    @BeforeEach
    void freshScript() {
        stub.reset();
    }

    private static Stream ok() {
        return new Stream(List.of(content("All ", true), content("good ", false), content("here.", false), last("stop", 5, 3)), true);
    }

    @Test
    void aRateLimitBeforeTheFirstTokenIsRetriedAndTheRunSucceeds() {
        stub.then(new Status(429, "{\"object\":\"error\",\"message\":\"Requests rate limit exceeded\",\"type\":\"rate_limited\",\"code\":\"1300\"}"))
                .then(ok());

        StreamedTurn.on(Api.newThread("mistral-429"), "hello").succeeded(ANSWER);

        assertThat(stub.requests()).hasSize(2);
    }

    @Test
    void aConnectionCutAfterTokensEndsTheStreamWithAnErrorAndKeepsTheTokensSentOnce() {
        stub.then(new Cut(List.of(content("Half ", true), content("an answer", false)))).then(ok());
        String thread = Api.newThread("mistral-cut");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().startsWith("node planner failed: mistral: ").contains("not retried");
        assertThat(turn.tokens()).containsExactly("Half ", "an answer");
        assertThat(stub.requests()).hasSize(1);
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aModelThatFallsSilentAfterTokensFailsTheRunAfterTheTimeout() {
        stub.then(new Stall(List.of(content("Half ", true), content("an answer", false)))).then(ok());
        String thread = Api.newThread("mistral-stall");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains(ModelStub.SILENCE).contains("not retried");
        assertThat(turn.tokens()).containsExactly("Half ", "an answer");
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aMalformedChunkAfterTokensEndsTheStreamWithAnErrorOnOneLine() {
        stub.then(new Stream(List.of(content("Half ", true), "{\"id\":\"cmpl-1\",\"choices\":[{\"delta\":{\"content\":",
                last("stop", 5, 1)), true)).then(ok());
        String thread = Api.newThread("mistral-malformed");

        StreamedTurn turn = StreamedTurn.on(thread, "hello");

        turn.failed().contains("a chunk of the stream could not be read").contains("not retried");
        assertThat(turn.tokens()).containsExactly("Half ");
        StreamedTurn.on(thread, "again").succeeded(ANSWER);
    }

    @Test
    void aServerErrorOnEveryAttemptFailsTheRunClearly() {
        stub.then(new Status(500, OpenAiChunks.error("upstream exploded", "server_error", null)));

        StreamedTurn turn = StreamedTurn.on(Api.newThread("mistral-500s"), "hello");

        turn.failed().contains("mistral: HTTP 500").contains("3 attempts");
        assertThat(stub.requests()).hasSize(3);
    }
}
