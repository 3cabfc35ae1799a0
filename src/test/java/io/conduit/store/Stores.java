package io.conduit.store;

import io.conduit.persistence.PostgresStore;
import io.conduit.persistence.TestDatabase;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/** Every implementation of {@link Store}, for the contract tests: each call gives an empty store on the given clock. */
public final class Stores {

    private Stores() {
    }

    public static Stream<Named<Function<Clock, Store>>> all() {
        return Stream.of(Named.of("memory", InMemoryStore::new),
                Named.of("postgres", clock -> new PostgresStore(emptied(), clock)));
    }

    private static Pool emptied() {
        Pool pool = TestDatabase.schemaPool("store_contract");
        pool.query("TRUNCATE conduit_store").execute().await().atMost(Duration.ofSeconds(10));
        return pool;
    }
}
