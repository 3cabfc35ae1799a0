package io.conduit.a2a;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** {@link A2aClientContract} with runs, threads and checkpoints in memory. */
@QuarkusTest
@TestProfile(A2aClientInMemoryTest.InMemory.class)
class A2aClientInMemoryTest extends A2aClientContract {

    public static class InMemory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.checkpointer.store", "memory");
        }
    }
}
