package io.conduit.llm;

import dev.langchain4j.http.client.HttpClientBuilderLoader;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.mistralai.MistralAiStreamingChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;

/** Builds the LangChain4j streaming model for an endpoint. */
public final class ProviderModels {

    private ProviderModels() {
    }

    public static StreamingChatModel build(LlmEndpoint endpoint) {
        return switch (endpoint.provider()) {
            case OPENAI -> openAi(endpoint);
            case MISTRAL -> mistral(endpoint);
        };
    }

    /**
     * Through quarkus-langchain4j's builder, so requests go over the Quarkus REST client (Vert.x, non-blocking).
     * LangChain4j always asks for {@code stream_options.include_usage}. {@code returnThinking} makes it pass
     * {@code delta.reasoning_content} on as thinking; {@link OpenAiChunkInterceptor} makes {@code delta.reasoning}
     * take the same path.
     */
    private static StreamingChatModel openAi(LlmEndpoint endpoint) {
        return OpenAiStreamingChatModel.builder()
                .baseUrl(endpoint.baseUrl())
                .apiKey(endpoint.apiKey())
                .modelName(endpoint.model())
                .temperature(endpoint.temperature())
                .timeout(endpoint.timeout())
                .returnThinking(true)
                .build();
    }

    /**
     * Plain langchain4j-mistral-ai on the HTTP client it brings (langchain4j-http-client-jdk, found through
     * LangChain4j's loader as it is a runtime dependency; the Quarkus extension does not resolve here), with a
     * guard that turns an error object in the stream, or a stream that closes without {@code [DONE]}, into a
     * failure: LangChain4j 1.11 would log the first and never complete on the second.
     */
    private static StreamingChatModel mistral(LlmEndpoint endpoint) {
        return MistralAiStreamingChatModel.builder()
                .httpClientBuilder(new GuardedSseHttpClientBuilder(
                        HttpClientBuilderLoader.loadHttpClientBuilder(), endpoint.provider().id()))
                .baseUrl(endpoint.baseUrl())
                .apiKey(endpoint.apiKey())
                .modelName(endpoint.model())
                .temperature(endpoint.temperature())
                .timeout(endpoint.timeout())
                .returnThinking(true)
                .build();
    }
}
