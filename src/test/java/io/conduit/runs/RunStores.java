package io.conduit.runs;

import io.conduit.persistence.PostgresAssistantStore;
import io.conduit.persistence.PostgresRunStore;
import io.conduit.persistence.PostgresThreadStore;
import io.conduit.persistence.TestDatabase;
import io.conduit.runs.memory.InMemoryAssistantStore;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Every implementation of the run, thread and assistant stores, for the contract tests. Each call of a supplier
 * gives an empty store: a new object in memory; in Postgres, emptied tables in a schema of their own (claimNext,
 * search and count see every row, so fresh ids would not isolate the tests). The tests run one at a time.
 */
public final class RunStores {

    /** Where the Postgres stores under test keep their rows. */
    static final String SCHEMA = "runs_contract";

    private RunStores() {
    }

    public static Stream<Named<Supplier<RunStore>>> runs() {
        return Stream.of(Named.of("memory", InMemoryRunStore::new),
                Named.of("postgres", () -> new PostgresRunStore(emptied("conduit_runs"))));
    }

    public static Stream<Named<Supplier<ThreadStore>>> threads() {
        return Stream.of(Named.of("memory", InMemoryThreadStore::new),
                Named.of("postgres", () -> new PostgresThreadStore(emptied("conduit_thread_records"))));
    }

    public static Stream<Named<Supplier<AssistantStore>>> assistants() {
        return Stream.of(Named.of("memory", InMemoryAssistantStore::new),
                Named.of("postgres", () -> new PostgresAssistantStore(emptied("conduit_assistants, conduit_assistant_versions"))));
    }

    private static Pool emptied(String tables) {
        Pool pool = TestDatabase.schemaPool(SCHEMA);
        pool.query("TRUNCATE " + tables).execute().await().atMost(Duration.ofSeconds(10));
        return pool;
    }
}
