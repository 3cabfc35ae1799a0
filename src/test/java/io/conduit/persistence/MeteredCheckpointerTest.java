package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.kernel.TimeOrderedIds;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checkpoint store as the service makes it ({@link CheckpointerProducer}): every write timed by kind, failed ones
 * too, reads not; on Postgres, the size of the JSON text each successful write stored.
 */
class MeteredCheckpointerTest {

    static Stream<Named<Function<MeterRegistry, Checkpointer>>> stores() {
        return Stream.of(Named.of("memory", MeteredCheckpointer::memory),
                Named.of("postgres", r -> MeteredCheckpointer.postgres(TestDatabase.pool(), r)));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void everyWriteIsTimedByKindAndReadsAreNot(Function<MeterRegistry, Checkpointer> stores) {
        MeterRegistry registry = new SimpleMeterRegistry();
        Checkpointer store = stores.apply(registry);
        String thread = "metered-" + UUID.randomUUID();
        Checkpoint first = checkpoint(thread);

        await(store.put(first, null));
        await(store.putWrites(thread, "", first.id(), writes()));
        await(store.putSnapshot(thread, "", first.id(), first.values()));
        await(store.head(thread, ""));
        await(store.list(thread, "", 10, null));
        // the head is not null any more: a conflict, timed like any write, and passed on unchanged
        assertThatThrownBy(() -> await(store.put(checkpoint(thread), null))).isInstanceOf(CheckpointConflictException.class);

        assertThat(timer(registry, "checkpoint").count()).isEqualTo(2);
        assertThat(timer(registry, "pending_writes").count()).isEqualTo(1);
        assertThat(timer(registry, "snapshot").count()).isEqualTo(1);
        assertThat(registry.find("conduit.checkpoint.write.duration").timers()).hasSize(3);
    }

    @Test
    void postgresCountsTheJsonTextOfTheWritesThatSucceeded() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Checkpointer store = MeteredCheckpointer.postgres(TestDatabase.pool(), registry);
        String thread = "metered-" + UUID.randomUUID();
        Checkpoint first = checkpoint(thread);

        await(store.put(first, null));
        await(store.putWrites(thread, "", first.id(), writes()));
        await(store.putSnapshot(thread, "", first.id(), first.values()));
        assertThatThrownBy(() -> await(store.put(checkpoint(thread), null))).isInstanceOf(CheckpointConflictException.class);

        // {"count":5} and {"source":"test"}; a refused put stored nothing
        assertThat(bytes(registry, "checkpoint").count()).isEqualTo(1);
        assertThat(bytes(registry, "checkpoint").totalAmount()).isEqualTo(11 + 17);
        // [1,2,3] and true
        assertThat(bytes(registry, "pending_writes").totalAmount()).isEqualTo(7 + 4);
        assertThat(bytes(registry, "snapshot").totalAmount()).isEqualTo(11);
        assertThat(timer(registry, "checkpoint").getId().getTag("store")).isEqualTo("postgres");
    }

    @Test
    void theInMemoryStoreHasNoSizesSinceItNeverSerializes() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Checkpointer store = MeteredCheckpointer.memory(registry);
        String thread = "metered-" + UUID.randomUUID();
        await(store.put(checkpoint(thread), null));

        assertThat(registry.find("conduit.checkpoint.write.bytes").summaries()).isEmpty();
        assertThat(timer(registry, "checkpoint").getId().getTag("store")).isEqualTo("memory");
    }

    private static Checkpoint checkpoint(String thread) {
        String id = TimeOrderedIds.next();
        return new Checkpoint(thread, "", id, null, -1, CheckpointSource.INPUT, null, Map.of("count", Stored.json("5")), Map.of(),
                List.of(), Map.of("source", "test"), TimeOrderedIds.millisOf(id), 1);
    }

    private static List<PendingWrite> writes() {
        return List.of(new PendingWrite("task-1", "a", 0, "items", Stored.json("[1,2,3]")),
                new PendingWrite("task-1", "a", 1, PendingWrite.DONE, Stored.json("true")));
    }

    private static Timer timer(MeterRegistry registry, String kind) {
        return registry.get("conduit.checkpoint.write.duration").tag("kind", kind).timer();
    }

    private static DistributionSummary bytes(MeterRegistry registry, String kind) {
        return registry.get("conduit.checkpoint.write.bytes").tag("kind", kind).summary();
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(10));
    }
}
