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

    /**
     * On a virtual thread of its own: LangChain4j's JDK client parses the stream with blocking reads, in the calling
     * thread when the response has already begun by the time it chains its parser (a fast server), so a call made
     * from an event loop blocked that loop for the whole answer (Vert.x's blocked-thread checker caught it, and the
     * run's timeout timer on that loop could not fire). A virtual thread may block, at almost no cost.
     */
    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        GuardedSseListener guarded = new GuardedSseListener(listener, provider, rewrite);
        Thread.ofVirtual().name("llm-stream").start(() -> {
            try {
                delegate.execute(request, parser, guarded);
            } catch (RuntimeException e) {
                guarded.onError(e); // thrown before streaming: reported as a failed stream, as the caller expects
            }
        });
    }
}
