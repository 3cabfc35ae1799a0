package io.conduit.a2a;

import io.conduit.InMemoryStores;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link A2aClientContract} with runs, threads and checkpoints in memory. */
@QuarkusTest
@TestProfile(InMemoryStores.class)
class A2aClientInMemoryTest extends A2aClientContract {
}
