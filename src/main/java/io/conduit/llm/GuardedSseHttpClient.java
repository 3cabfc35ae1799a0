package io.conduit.llm;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.util.function.UnaryOperator;

/** A LangChain4j HTTP client whose streams go through a {@link GuardedSseListener}. */
final class GuardedSseHttpClient implements HttpClient {

    private final HttpClient delegate;
    private final String provider;
    private final UnaryOperator<String> rewrite;

    GuardedSseHttpClient(HttpClient delegate, String provider, UnaryOperator<String> rewrite) {
        this.delegate = delegate;
        this.provider = provider;
        this.rewrite = rewrite;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) throws HttpException, RuntimeException {
        return delegate.execute(request);
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        delegate.execute(request, parser, new GuardedSseListener(listener, provider, rewrite));
    }
}
