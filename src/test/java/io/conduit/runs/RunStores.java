package io.conduit.runs;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Every implementation of the run, thread and assistant stores, for the contract tests. Each call of a supplier
 * gives an empty store: a new object in memory, emptied tables of a schema of their own in Postgres (claimNext and
 * search see every row, so fresh ids would not isolate the tests).
 */
public final class RunStores {

    private RunStores() {
    }

    public static Stream<Named<Supplier<RunStore>>> runs() {
        return Stream.of(Named.of("memory", InMemoryRunStore::new));
    }

    public static Stream<Named<Supplier<ThreadStore>>> threads() {
        return Stream.of(Named.of("memory", InMemoryThreadStore::new));
    }

    public static Stream<Named<Supplier<AssistantStore>>> assistants() {
        return Stream.of(Named.of("memory", InMemoryAssistantStore::new));
    }
}
