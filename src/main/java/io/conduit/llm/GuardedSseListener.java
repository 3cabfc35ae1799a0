package io.conduit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.CancellationUnsupportedHandle;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * Sits between the SSE parser and LangChain4j's listener. It fails the stream on an error object
 * ({@code data: {"error":...}} or {@code {"object":"error",...}}), which LangChain4j's Mistral listener would
 * choke on and the parser would log and skip, on a stream that closes before {@code [DONE]}, which the Mistral
 * listener would wait on forever, and on a chunk the listener cannot read, which the parser would log and skip.
 */
final class GuardedSseListener implements ServerSentEventListener {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServerSentEventListener delegate;
    private final String provider;
    private final UnaryOperator<String> rewrite;
    private final AtomicBoolean finished = new AtomicBoolean();

    /** {@code rewrite} sees each event's data first: a provider's fixes for what LangChain4j would misread. */
    GuardedSseListener(ServerSentEventListener delegate, String provider, UnaryOperator<String> rewrite) {
        this.delegate = delegate;
        this.provider = provider;
        this.rewrite = rewrite;
    }

    @Override
    public void onOpen(SuccessfulHttpResponse response) {
        delegate.onOpen(response);
    }

    @Override
    public void onEvent(ServerSentEvent event) {
        onEvent(event, new ServerSentEventContext(new CancellationUnsupportedHandle()));
    }

    @Override
    public void onEvent(ServerSentEvent received, ServerSentEventContext context) {
        if (finished.get()) {
            return;
        }
        String rewritten = received.data() == null ? null : rewrite.apply(received.data());
        ServerSentEvent event = rewritten == received.data() ? received : new ServerSentEvent(received.event(), rewritten);
        String data = event.data();
        if ("[DONE]".equals(data)) {
            finished.set(true);
            delegate.onEvent(event, context);
            return;
        }
        ProviderStreamError error = errorIn(event);
        if (error != null) {
            finished.set(true);
            context.parsingHandle().cancel();
            delegate.onError(error);
            return;
        }
        try {
            delegate.onEvent(event, context);
        } catch (RuntimeException unreadable) {
            // LangChain4j's Mistral listener throws on a chunk it cannot parse, and its SSE parser logs that and reads
            // on: the chunk's text was lost and the run ended "success" with a hole in its answer
            if (finished.compareAndSet(false, true)) {
                context.parsingHandle().cancel();
                delegate.onError(unreadable);
            }
        }
    }

    private ProviderStreamError errorIn(ServerSentEvent event) {
        String data = event.data();
        boolean errorEvent = "error".equals(event.event());
        // cheap test first: an escaped "error" inside generated text never matches
        if (!errorEvent && (data == null || !(data.contains("\"error\"")))) {
            return null;
        }
        try {
            JsonNode root = JSON.readTree(data);
            boolean errorObject = root.isObject() && (root.has("error") || "error".equals(root.path("object").asText()));
            if (!errorEvent && !errorObject) {
                return null;
            }
            String message = ProviderErrorBody.message(root);
            return new ProviderStreamError(message == null ? data : message, ProviderErrorBody.code(root));
        } catch (Exception notJson) {
            return errorEvent ? new ProviderStreamError(data, null) : null;
        }
    }

    @Override
    public void onError(Throwable throwable) {
        if (finished.compareAndSet(false, true)) {
            delegate.onError(throwable);
        }
    }

    @Override
    public void onClose() {
        if (finished.compareAndSet(false, true)) {
            delegate.onError(new BrokenStream("the " + provider + " stream closed before [DONE] (cut short?)"));
        }
        delegate.onClose();
    }
}
