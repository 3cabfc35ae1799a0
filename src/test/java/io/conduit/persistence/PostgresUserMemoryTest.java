package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What only the Postgres store has to get right (the shared promises are in UserMemoryContractTest). */
class PostgresUserMemoryTest {

    static final Duration WAIT = Duration.ofSeconds(10);
    final PostgresUserMemory memory = new PostgresUserMemory(TestDatabase.pool());

    @Test
    void overwritingMovesUpdatedAt() {
        String ada = "ada-" + UUID.randomUUID();
        memory.put(ada, "city", "Lyon").await().atMost(WAIT);
        TestDatabase.pool().preparedQuery("UPDATE conduit_user_memory SET updated_at = '2000-01-01T00:00:00Z' WHERE user_id = $1")
                .execute(Tuple.of(ada)).await().atMost(WAIT);
        memory.put(ada, "city", "Paris").await().atMost(WAIT);
        Row row = TestDatabase.pool().preparedQuery("SELECT value, updated_at FROM conduit_user_memory WHERE user_id = $1")
                .execute(Tuple.of(ada)).await().atMost(WAIT).iterator().next();
        assertThat(row.getString("value")).isEqualTo("Paris");
        assertThat(row.getOffsetDateTime("updated_at")).isAfter(OffsetDateTime.parse("2020-01-01T00:00:00Z"));
    }

    @Test
    void concurrentWritesOfOneKeyLeaveOneRowAndNoError() {
        String ada = "ada-" + UUID.randomUUID();
        List<Uni<Void>> writes = IntStream.range(0, 20).mapToObj(i -> memory.put(ada, "city", "city-" + i)).toList();
        Uni.join().all(writes).andFailFast().await().atMost(WAIT);
        assertThat(memory.all(ada).await().atMost(WAIT)).hasSize(1).containsKey("city");
        assertThat(memory.get(ada, "city").await().atMost(WAIT).orElseThrow()).startsWith("city-");
    }
}
