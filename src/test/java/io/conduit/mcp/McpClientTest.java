package io.conduit.mcp;

import io.quarkus.test.junit.QuarkusTest;

/** {@link McpClientContract} with runs, threads, assistants and checkpoints in Postgres. */
@QuarkusTest
class McpClientTest extends McpClientContract {
}
