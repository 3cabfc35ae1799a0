package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The {@code source} column keeps the names rows have always held (input, loop, update, fork), so rows written
 * before the enum read back and new rows look the same; a name no version wrote is reported, not guessed at.
 */
class StoredSourceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String SOURCES = "SELECT c.source FROM conduit_checkpoints c JOIN conduit_threads t USING (thread_key) "
            + "WHERE t.thread_id = $1 ORDER BY c.checkpoint_id";

    @Test
    void theColumnHoldsTheWireNames() {
        String thread = "sources-" + UUID.randomUUID();
        writeOneOfEach(thread);
        List<String> stored = new ArrayList<>();
        for (Row r : await(TestDatabase.pool().preparedQuery(SOURCES).execute(Tuple.of(thread)))) {
            stored.add(r.getString(0));
        }
        assertThat(stored).containsExactly("input", "loop", "update", "fork");
    }

    @Test
    void anUnknownStoredNameIsReportedWithItsThreadAndCheckpoint() {
        String thread = "sources-" + UUID.randomUUID();
        Checkpoint head = writeOneOfEach(thread);
        await(TestDatabase.pool().preparedQuery("UPDATE conduit_checkpoints SET source = 'sideways' WHERE checkpoint_id = $1")
                .execute(Tuple.of(UUID.fromString(head.id()))));
        assertThatThrownBy(() -> await(TestDatabase.checkpointer().head(thread, ""))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(thread).hasMessageContaining(head.id()).hasMessageContaining("unknown checkpoint source: sideways");
    }

    /** One checkpoint of each source, oldest first; returns the last. */
    private static Checkpoint writeOneOfEach(String thread) {
        PostgresCheckpointer store = TestDatabase.checkpointer();
        Checkpoint parent = null;
        for (CheckpointSource source : List.of(CheckpointSource.INPUT, CheckpointSource.LOOP, CheckpointSource.UPDATE, CheckpointSource.FORK)) {
            String id = TimeOrderedIds.next();
            Checkpoint c = new Checkpoint(thread, "", id, parent == null ? null : parent.id(), parent == null ? -1 : parent.step() + 1,
                    source, null, Map.of(), Map.of(), List.of(TaskSpec.of("a")), Map.of(), TimeOrderedIds.millisOf(id),
                    parent == null ? 1 : parent.chainLength() + 1);
            await(store.put(c, parent == null ? null : parent.id()));
            parent = c;
        }
        return parent;
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
