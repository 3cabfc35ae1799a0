package io.conduit.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The test profile of the cancel-in-flight tests (the Agent Server API's cancel and A2A's tasks/cancel): the first
 * token at once, then a ten-minute pause before each next one, and a model-call idle limit longer than that, so that
 * once a run has its first token only a cancel that stops the model call in flight ends it before the tests' guards.
 * One profile, so Quarkus starts once for both tests.
 */
public class PausingModel implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("conduit.simulator.time-to-first-token", "0s",
                "conduit.simulator.inter-token-delay", "10m",
                "conduit.llm.timeout", "30m");
    }
}
