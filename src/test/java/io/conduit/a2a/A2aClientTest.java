package io.conduit.a2a;

import io.quarkus.test.junit.QuarkusTest;

/** {@link A2aClientContract} on the default test store, PostgreSQL. */
@QuarkusTest
class A2aClientTest extends A2aClientContract {
}
