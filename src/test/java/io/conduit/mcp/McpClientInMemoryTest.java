package io.conduit.mcp;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** {@link McpClientContract} with runs, threads, assistants and checkpoints in memory. */
@QuarkusTest
@TestProfile(McpClientInMemoryTest.InMemory.class)
class McpClientInMemoryTest extends McpClientContract {

    public static class InMemory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.checkpointer.store", "memory");
        }
    }
}
