package io.conduit.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** {@link RunLifecycleContract} with runs, threads and checkpoints in Postgres (the test default). */
@QuarkusTest
@TestProfile(RunLifecycleOnPostgresTest.SlowModel.class)
class RunLifecycleOnPostgresTest extends RunLifecycleContract {

    /** Shared with {@link ApiErrorsTest}: one boot for both. */
    public static class SlowModel implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return slowModel(Map.of());
        }
    }
}
