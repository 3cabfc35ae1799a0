package io.conduit.runs.crons;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Cron;
import io.conduit.runs.CronStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A tick of a cron without a thread: its run is on a new thread, kept after it with {@code on_run_completed: keep},
 * and the cron's {@code webhook} is its run's (the run's final record is POSTed to a receiver here, which is how the
 * test learns the run's thread). The default, {@code delete}, is not checked here: the run's record goes with its
 * thread, and with it the webhook (WebhookObserver finds no run to send), so this test would have no way to learn
 * which thread was deleted. The scheduler's timer is off (the SDK test's profile): the test makes the cron due
 * through the store and asks the scheduler to look once.
 */
@QuarkusTest
@TestProfile(CronTimerOff.class)
class CronTicksTest {

    @Inject
    CronStore store;

    @Inject
    CronScheduler scheduler;

    private HttpServer receiver;
    private final LinkedBlockingQueue<JsonNode> delivered = new LinkedBlockingQueue<>();

    @BeforeEach
    void receive() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            delivered.add(JsonCodec.MAPPER.readTree(exchange.getRequestBody().readAllBytes()));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() {
        receiver.stop(0);
    }

    @Test
    void aKeptThreadOutlivesItsRunAndTheWebhookNamesTheCron() throws Exception {
        String cronId = create("keep");
        JsonNode run = tick(cronId);
        assertThat(run.path("status").asText()).isEqualTo("success");
        assertThat(run.path("metadata").path("cron_id").asText()).isEqualTo(cronId);
        given().get("/threads/" + run.path("thread_id").asText()).then().statusCode(200);
    }

    @Test
    void aDisabledCronIsNotClaimed() {
        String cronId = create(null);
        given().contentType("application/json").body(Map.of("enabled", false)).patch("/runs/crons/" + cronId).then().statusCode(200);
        makeDue(cronId);
        scheduler.poll().await().atMost(Duration.ofSeconds(30));
        assertThat(store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow().nextRunDate())
                .as("not claimed: its due date did not move").isBefore(Instant.now());
        given().delete("/runs/crons/" + cronId).then().statusCode(204);
    }

    @Test
    void aPatchOfOtherFieldsKeepsTheStoredNextTickAndANewScheduleMovesIt() throws Exception {
        String cronId = create("keep");
        makeDue(cronId);
        Instant due = store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow().nextRunDate();
        given().contentType("application/json").body(Map.of("metadata", Map.of("team", "blue"))).patch("/runs/crons/" + cronId)
                .then().statusCode(200);
        assertThat(store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow().nextRunDate())
                .as("not computed again from now: a tick claimed just before would otherwise be moved back").isEqualTo(due);
        assertThat(scheduler.poll().await().atMost(Duration.ofSeconds(30))).as("the due tick still runs").isEqualTo(1);
        assertThat(delivered.poll(60, TimeUnit.SECONDS)).as("the run's webhook").isNotNull();

        makeDue(cronId);
        given().contentType("application/json").body(Map.of("schedule", "0 0 1 2 *")).patch("/runs/crons/" + cronId)
                .then().statusCode(200);
        Cron moved = store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow();
        assertThat(moved.nextRunDate()).as("a new schedule: its first tick after now").isAfter(Instant.now());
        given().delete("/runs/crons/" + cronId).then().statusCode(204);
    }

    private String create(String onRunCompleted) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("assistant_id", "agent", "schedule", "0 0 1 1 *",
                "input", Map.of("messages", java.util.List.of(Map.of("role", "user", "content", "Please plan my week"))),
                "webhook", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook"));
        if (onRunCompleted != null) {
            body.put("on_run_completed", onRunCompleted);
        }
        return given().contentType("application/json").body(body).post("/runs/crons").then().statusCode(200)
                .extract().path("cron_id");
    }

    /** Makes the cron due, has the scheduler look once, and answers the run's webhook. */
    private JsonNode tick(String cronId) throws Exception {
        makeDue(cronId);
        assertThat(scheduler.poll().await().atMost(Duration.ofSeconds(30))).isEqualTo(1);
        JsonNode run = delivered.poll(60, TimeUnit.SECONDS); // a bound against a hang, not a timing assertion
        assertThat(run).as("the run's webhook").isNotNull();
        return run;
    }

    private void makeDue(String cronId) {
        Instant due = Instant.now().minusSeconds(1);
        store.update(cronId, c -> c.withNextRunDate(due)).await().atMost(Duration.ofSeconds(10)).orElseThrow();
    }
}
