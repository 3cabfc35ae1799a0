package io.conduit.graph;

import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Stores;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/** Every checkpoint store × durability mode: graph tests run over each, as LangGraph's own suite does. */
public final class Backends {

    public record Backend(Supplier<Checkpointer> store, Durability durability) {
        /** Options for compiling a test graph on this backend: a fresh store. */
        public GraphOptions options() {
            return GraphOptions.with(store.get());
        }

        /** A run request on this backend's durability mode. */
        public RunRequest on(String threadId) {
            return RunRequest.on(threadId).durability(durability);
        }
    }

    private Backends() {
    }

    public static Stream<Named<Backend>> all() {
        return Stores.all().flatMap(s -> Stream.of(Durability.values())
                .map(d -> Named.of(s.getName() + "/" + d.name().toLowerCase(), new Backend(s.getPayload(), d))));
    }
}
