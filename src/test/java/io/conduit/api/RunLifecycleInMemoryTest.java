package io.conduit.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** {@link RunLifecycleContract} with runs, threads and checkpoints in memory. */
@QuarkusTest
@TestProfile(RunLifecycleInMemoryTest.SlowModelInMemory.class)
class RunLifecycleInMemoryTest extends RunLifecycleContract {

    public static class SlowModelInMemory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return slowModel(Map.of("conduit.checkpointer.store", "memory"));
        }
    }
}
