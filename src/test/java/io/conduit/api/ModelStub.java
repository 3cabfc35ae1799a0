package io.conduit.api;

import io.conduit.llm.ProviderStub;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.HashMap;
import java.util.Map;

/**
 * The service's model is a {@link ProviderStub} (OpenAI's streaming wire format on a real HTTP server), started before
 * Quarkus so that {@code conduit.llm.base-url} can point at it, and handed to the test's {@link Stub} field. The idle
 * timeout is short (a stall fails in seconds, not a minute) and retries back off for a few milliseconds. The
 * resource's arg {@code provider} picks the client ({@code openai} unless set; {@code mistral} speaks the same SSE).
 */
public class ModelStub implements QuarkusTestResourceLifecycleManager {

    /** The field of a test that receives the stub. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface Stub {
    }

    /**
     * {@code conduit.llm.timeout} in these tests: the longest silence of the model before its call fails. Short, but
     * not so short that a slow first call (a JVM's first request is serialized while the timer runs) on a loaded
     * machine times out by itself and is retried: that attempt would take a reply of the stub's script out of turn.
     */
    static final String TIMEOUT = "2s";
    /** What a call that timed out says. */
    static final String SILENCE = "no data from the model for 2000 ms";

    private ProviderStub stub;
    private String provider = "openai";

    @Override
    public void init(Map<String, String> args) {
        provider = args.getOrDefault("provider", provider);
    }

    @Override
    public Map<String, String> start() {
        try {
            stub = ProviderStub.start();
        } catch (Exception e) {
            throw new IllegalStateException("the model stub did not start", e);
        }
        Map<String, String> config = new HashMap<>();
        config.put("conduit.llm.provider", provider);
        config.put("conduit.llm.base-url", stub.baseUrl());
        config.put("conduit.llm.api-key", "stub-key");
        config.put("conduit.llm.model", "gpt-test");
        config.put("conduit.llm.timeout", TIMEOUT);
        config.put("conduit.llm.max-retries", "2");
        config.put("conduit.llm.retry-backoff", "5ms");
        config.put("conduit.llm.retry-max-backoff", "20ms");
        return config;
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(stub, new TestInjector.AnnotatedAndMatchesType(Stub.class, ProviderStub.class));
    }

    @Override
    public void stop() {
        try {
            if (stub != null) {
                stub.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
