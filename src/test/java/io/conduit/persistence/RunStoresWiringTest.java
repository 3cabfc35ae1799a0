package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.Assistant;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.ThreadStore;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The stores as the service gets them: in Postgres under %test, on a schema the service migrated itself (V3). */
@QuarkusTest
class RunStoresWiringTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    RunStore runs;

    @Inject
    ThreadStore threads;

    @Inject
    AssistantStore assistants;

    @Test
    void theStoresArePostgresAndTheirTablesExist() {
        assertThat(runs).isInstanceOf(PostgresRunStore.class);
        assertThat(threads).isInstanceOf(PostgresThreadStore.class);
        assertThat(assistants).isInstanceOf(PostgresAssistantStore.class);

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String thread = "wiring-" + UUID.randomUUID();
        assertThat(threads.create(thread, Map.of("test", "wiring"), null, false, now).await().atMost(WAIT).threadId()).isEqualTo(thread);
        String runId = UUID.randomUUID().toString();
        Run run = new Run(runId, thread, "agent", RunStatus.PENDING, null, MultitaskStrategy.REJECT, null, now, now, now, null);
        assertThat(runs.create(run).await().atMost(WAIT).status()).isEqualTo(RunStatus.PENDING);
        // not claimed: a worker of the service might be polling this database
        assertThat(runs.cancelPending(runId, now).await().atMost(WAIT)).isTrue();
        String assistant = UUID.randomUUID().toString();
        assertThat(assistants.create(new Assistant(assistant, "agent", "wiring", null, null, null, null, 0, now, now), false)
                .await().atMost(WAIT).version()).isEqualTo(1);

        runs.deleteThread(thread).await().atMost(WAIT);
        threads.delete(thread).await().atMost(WAIT);
        assistants.delete(assistant).await().atMost(WAIT);
    }
}
