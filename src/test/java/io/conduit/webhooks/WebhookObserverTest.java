package io.conduit.webhooks;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** {@link WebhookObserverContract} with runs, threads and checkpoints in Postgres (the test default). */
@QuarkusTest
@TestProfile(WebhookObserverTest.SlowModel.class)
class WebhookObserverTest extends WebhookObserverContract {

    public static class SlowModel implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return slowModel(Map.of());
        }
    }
}
