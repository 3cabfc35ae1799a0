package io.conduit.checkpoint;

import io.conduit.persistence.TestDatabase;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Every {@link Checkpointer} implementation, for contract tests: each test that takes one runs against all of them.
 * Each call of a supplier gives a store with no threads in common with any other (fresh thread ids suffice for
 * Postgres, whose tables are shared).
 */
public final class Stores {

    private Stores() {
    }

    public static Stream<Named<Supplier<Checkpointer>>> all() {
        return Stream.of(
                Named.of("memory", InMemoryCheckpointer::new),
                Named.of("postgres", TestDatabase::checkpointer));
    }
}
