package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The start-up's shortcut past Flyway: taken on the history the service just migrated, refused as soon as one applied
 * checksum differs from its packaged file (then Flyway runs and fails validation, as it did without the shortcut).
 */
@QuarkusTest
class SchemaHistoryCheckTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    SchemaHistoryCheck check;

    @Inject
    Pool pool;

    @Test
    void aHistoryHoldingEveryPackagedMigrationIsCurrentAtItsHighestVersion() {
        String highest = pool.query("select version from flyway_schema_history where success order by installed_rank desc limit 1")
                .execute().await().atMost(WAIT).iterator().next().getString("version");
        assertThat(check.currentVersion()).isEqualTo(highest);
    }

    @Test
    void aChangedChecksumSendsTheStartToFlyway() {
        String first = "(select min(installed_rank) from flyway_schema_history)";
        pool.query("update flyway_schema_history set checksum = checksum + 1 where installed_rank = " + first)
                .execute().await().atMost(WAIT);
        try {
            assertThat(check.currentVersion()).isNull();
        } finally {
            pool.query("update flyway_schema_history set checksum = checksum - 1 where installed_rank = " + first)
                    .execute().await().atMost(WAIT);
        }
        assertThat(check.currentVersion()).isNotNull();
    }
}
