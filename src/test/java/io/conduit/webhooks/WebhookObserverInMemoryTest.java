package io.conduit.webhooks;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** {@link WebhookObserverContract} with runs, threads and checkpoints in memory. */
@QuarkusTest
@TestProfile(WebhookObserverInMemoryTest.SlowModelInMemory.class)
class WebhookObserverInMemoryTest extends WebhookObserverContract {

    public static class SlowModelInMemory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return slowModel(Map.of("conduit.checkpointer.store", "memory"));
        }
    }
}
