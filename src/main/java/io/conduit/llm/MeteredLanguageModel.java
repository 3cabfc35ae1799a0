package io.conduit.llm;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Multi;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The service's {@link LanguageModel} with its calls counted: calls by model and outcome, tokens in and out, estimated
 * cost, call duration and time to first token (docs/observability.md). It reads only the call's end (the response
 * already carries its usage and timings): nothing is done per token. Meters are resolved once per model.
 */
final class MeteredLanguageModel implements LanguageModel {

    private static final Duration[] BUCKETS = seconds(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120);
    /** Past this many distinct model names, others are counted as "other": names come from assistants' configs. */
    private static final int MAX_MODELS = 100;

    private final LanguageModel delegate;
    private final MeterRegistry registry;
    private final String configuredModel;
    private final Map<String, Meters> byModel = new ConcurrentHashMap<>();

    /** One model's meters. */
    private record Meters(Counter ok, Counter failed, Counter input, Counter output, Counter cost, Timer duration, Timer firstToken) {
    }

    MeteredLanguageModel(LanguageModel delegate, MeterRegistry registry, String configuredModel) {
        this.delegate = delegate;
        this.registry = registry;
        this.configuredModel = configuredModel;
    }

    @Override
    public Multi<ModelEvent> stream(ModelRequest request) {
        Meters m = meters(request.model() != null ? request.model() : configuredModel);
        long start = System.nanoTime();
        return delegate.stream(request)
                .onItem().invoke(e -> {
                    if (e instanceof ModelEvent.Completed c) {
                        completed(m, c.response(), System.nanoTime() - start);
                    }
                })
                .onFailure().invoke(f -> {
                    m.failed().increment();
                    m.duration().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                });
    }

    private static void completed(Meters m, ModelResponse r, long nanos) {
        m.ok().increment();
        m.input().increment(r.inputTokens());
        m.output().increment(r.outputTokens());
        if (r.estimatedCostUsd() > 0) {
            m.cost().increment(r.estimatedCostUsd());
        }
        m.duration().record(nanos, TimeUnit.NANOSECONDS);
        if (r.timeToFirstTokenMillis() >= 0) {
            m.firstToken().record(r.timeToFirstTokenMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The model whose calls are counted. */
    LanguageModel delegate() {
        return delegate;
    }

    @Override
    public boolean scripted() {
        return delegate.scripted();
    }

    private Meters meters(String model) {
        Meters m = byModel.get(model);
        if (m != null) {
            return m;
        }
        String name = byModel.size() >= MAX_MODELS ? "other" : model;
        return byModel.computeIfAbsent(name, this::register);
    }

    private Meters register(String model) {
        return new Meters(
                calls(model, "success"), calls(model, "error"),
                tokens(model, "input"), tokens(model, "output"),
                Counter.builder("conduit.model.cost.usd").description("Estimated cost of model calls from conduit.llm.prices, in USD")
                        .tag("model", model).register(registry),
                Timer.builder("conduit.model.call.duration").description("How long model calls took, first byte to last")
                        .tag("model", model).serviceLevelObjectives(BUCKETS).register(registry),
                Timer.builder("conduit.model.first.token").description("Time from a model call's start to its first token")
                        .tag("model", model).serviceLevelObjectives(BUCKETS).register(registry));
    }

    private Counter calls(String model, String outcome) {
        return Counter.builder("conduit.model.calls").description("Model calls, by model and outcome")
                .tags("model", model, "outcome", outcome).register(registry);
    }

    private Counter tokens(String model, String type) {
        return Counter.builder("conduit.model.tokens").description("Model tokens, by model and type (input, output)")
                .tags("model", model, "type", type).register(registry);
    }

    private static Duration[] seconds(double... s) {
        Duration[] out = new Duration[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = Duration.ofNanos((long) (s[i] * 1e9));
        }
        return out;
    }
}
