package io.conduit.llm;

import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A LangChain4j {@link StreamingChatModel} as the agent's {@link LanguageModel}. A call that fails before any output
 * is retried with exponential backoff on Mutiny's timers when the failure is transient; once the caller has seen
 * output, a failure ends the stream at once.
 */
public final class LangChain4jModel implements LanguageModel {

    private final StreamingChatModel model;
    private final LlmEndpoint endpoint;
    private final RetryPolicy retry;
    private final PriceTable prices;
    private final Vertx vertx;

    private final boolean acceptsImages;

    /** @param vertx whose timers watch each call for silence ({@link LlmEndpoint#timeout()}) */
    public LangChain4jModel(StreamingChatModel model, LlmEndpoint endpoint, RetryPolicy retry, PriceTable prices, Vertx vertx) {
        this(model, endpoint, retry, prices, vertx, true);
    }

    /** @param acceptsImages whether the model reads images ({@code conduit.llm.accepts-images}); if not, they become a note */
    public LangChain4jModel(StreamingChatModel model, LlmEndpoint endpoint, RetryPolicy retry, PriceTable prices, Vertx vertx,
                            boolean acceptsImages) {
        this.acceptsImages = acceptsImages;
        this.vertx = vertx;
        this.model = model;
        this.endpoint = endpoint;
        this.retry = retry;
        this.prices = prices;
    }

    /** When the simulator's HTTP endpoint stands in for a model (no key, in test). */
    @Override
    public boolean scripted() {
        return endpoint.standIn();
    }

    @Override
    public Multi<ModelEvent> stream(ModelRequest request) {
        return Multi.createFrom().deferred(() -> {
            long start = System.nanoTime();
            String provider = endpoint.provider().id();
            String modelName = request.model() != null ? request.model() : endpoint.modelFor(request.role());
            ChatRequest chatRequest;
            try {
                chatRequest = LangChain4jRequests.of(request, modelName, acceptsImages);
            } catch (RuntimeException e) {
                return Multi.createFrom().failure(new ModelException(provider, "bad request: " + e.getMessage(), e));
            }
            CallContext call = new CallContext(provider, modelName, prices, start);
            AtomicInteger attempts = new AtomicInteger();
            Multi<ModelEvent> attempt = Multi.createFrom().deferred(() -> {
                attempts.incrementAndGet();
                return StreamAttempt.run(model, chatRequest, call, endpoint.timeout(), vertx);
            });
            Multi<ModelEvent> withRetries = retry.maxRetries() == 0 ? attempt : attempt
                    .onFailure(StreamFailures::retryable).retry()
                    .withBackOff(retry.initialBackoff(), retry.maxBackoff())
                    .atMost(retry.maxRetries());
            return withRetries.onFailure().transform(f -> StreamFailures.toModelException(provider, f, attempts.get()));
        });
    }
}
