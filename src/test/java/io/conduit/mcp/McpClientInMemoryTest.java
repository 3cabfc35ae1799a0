package io.conduit.mcp;

import io.conduit.InMemoryStores;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link McpClientContract} with runs, threads, assistants and checkpoints in memory. */
@QuarkusTest
@TestProfile(InMemoryStores.class)
class McpClientInMemoryTest extends McpClientContract {
}
