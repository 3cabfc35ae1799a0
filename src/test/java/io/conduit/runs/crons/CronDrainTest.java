package io.conduit.runs.crons;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.http.ReplicaDrain;
import io.conduit.runs.Cron;
import io.conduit.runs.CronStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A replica that drains claims no more ticks: a due cron stays due (another replica, or the restarted one, runs it).
 * The app of this test is drained, so it has a profile of its own: no other test shares the drained app.
 */
@QuarkusTest
@TestProfile(CronDrainTest.DrainedHere.class)
class CronDrainTest {

    /** The timer off (the test asks the scheduler to look); a profile no other test uses. */
    public static class DrainedHere implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.crons.enabled", "false", "conduit.crons.batch-size", "7");
        }
    }

    @Inject
    CronStore store;

    @Inject
    CronScheduler scheduler;

    @Inject
    ReplicaDrain drain;

    @Test
    void aDrainingReplicaClaimsNoTick() throws Exception {
        String cronId = given().contentType("application/json").body(Map.of("assistant_id", "agent", "schedule", "*/10 * * * *"))
                .post("/runs/crons").then().statusCode(200).extract().path("cron_id");
        Cron c = store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow();
        Instant due = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).minusSeconds(1); // as Postgres keeps it
        store.update(cronId, current -> current.withNextRunDate(due)).await().atMost(Duration.ofSeconds(10));

        drain.drain().get(30, TimeUnit.SECONDS);

        assertThat(scheduler.poll().await().atMost(Duration.ofSeconds(10))).isZero();
        assertThat(store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow().nextRunDate())
                .as("still due: left for another replica").isEqualTo(due);
        store.delete(cronId).await().atMost(Duration.ofSeconds(10));
    }
}
