package io.conduit.llm;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import java.time.Duration;
import java.util.function.UnaryOperator;

/** Builds the wrapped client as usual, then puts a {@link GuardedSseHttpClient} around it. */
final class GuardedSseHttpClientBuilder implements HttpClientBuilder {

    private final HttpClientBuilder delegate;
    private final String provider;
    private final UnaryOperator<String> rewrite;

    GuardedSseHttpClientBuilder(HttpClientBuilder delegate, String provider, UnaryOperator<String> rewrite) {
        this.delegate = delegate;
        this.provider = provider;
        this.rewrite = rewrite;
    }

    @Override
    public Duration connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public HttpClientBuilder connectTimeout(Duration timeout) {
        delegate.connectTimeout(timeout);
        return this;
    }

    @Override
    public Duration readTimeout() {
        return delegate.readTimeout();
    }

    @Override
    public HttpClientBuilder readTimeout(Duration timeout) {
        delegate.readTimeout(timeout);
        return this;
    }

    @Override
    public HttpClient build() {
        return new GuardedSseHttpClient(delegate.build(), provider, rewrite);
    }
}
