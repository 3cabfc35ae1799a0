package io.conduit.llm;

import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.mistralai.MistralAiStreamingChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.util.function.UnaryOperator;

/** Builds the LangChain4j streaming model for an endpoint. */
public final class ProviderModels {

    private ProviderModels() {
    }

    public static StreamingChatModel build(LlmEndpoint endpoint) {
        return switch (endpoint.provider()) {
            case OPENAI -> openAi(endpoint);
            case MISTRAL -> mistral(endpoint);
            case SIMULATED -> throw new IllegalArgumentException("the simulated model runs in-process, without LangChain4j");
        };
    }

    /**
     * Plain langchain4j-open-ai on LangChain4j's JDK HTTP client ({@link #http11}), behind the
     * same guard, with {@link OpenAiChunkRewrite} applied to every event's data. Not quarkus-langchain4j's REST
     * client: it closed each streamed connection after handing it back to Vert.x's pool, so concurrent calls failed
     * with "Connection was closed" (docs/benchmarks.md). The JDK client streams on its own threads, never on the
     * event loop. LangChain4j always asks for {@code stream_options.include_usage}. {@code returnThinking} makes it
     * pass {@code delta.reasoning_content} on as thinking; the rewrite makes {@code delta.reasoning} take the same path.
     */
    private static StreamingChatModel openAi(LlmEndpoint endpoint) {
        return OpenAiStreamingChatModel.builder()
                .httpClientBuilder(new GuardedSseHttpClientBuilder(http11(), endpoint.provider().id(), OpenAiChunkRewrite::normalised))
                .baseUrl(endpoint.baseUrl())
                .apiKey(endpoint.apiKey())
                .modelName(endpoint.model())
                .temperature(endpoint.temperature())
                .timeout(endpoint.timeout())
                .returnThinking(true)
                .build();
    }

    /**
     * LangChain4j's JDK HTTP client on HTTP/1.1: to a plain-HTTP server (vLLM, Ollama, a test stub) the JDK client
     * would otherwise try an h2c upgrade, and on a connection cut mid-stream it sent the request again. HTTPS
     * providers are served as well over HTTP/1.1, one stream per connection, kept alive and pooled.
     */
    private static JdkHttpClientBuilder http11() {
        return JdkHttpClient.builder().httpClientBuilder(java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1));
    }

    /**
     * Plain langchain4j-mistral-ai on the same client ({@link #http11}; the Quarkus extension does not resolve
     * here), with a guard that turns an error object in the stream, or a stream that closes without {@code [DONE]}, into a
     * failure: LangChain4j 1.11 would log the first and never complete on the second.
     */
    private static StreamingChatModel mistral(LlmEndpoint endpoint) {
        return MistralAiStreamingChatModel.builder()
                .httpClientBuilder(new GuardedSseHttpClientBuilder(http11(), endpoint.provider().id(), UnaryOperator.identity()))
                .baseUrl(endpoint.baseUrl())
                .apiKey(endpoint.apiKey())
                .modelName(endpoint.model())
                .temperature(endpoint.temperature())
                .timeout(endpoint.timeout())
                .returnThinking(true)
                .build();
    }
}
