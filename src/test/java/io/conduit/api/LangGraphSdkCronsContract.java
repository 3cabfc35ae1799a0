package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.runs.Cron;
import io.conduit.runs.CronStore;
import io.conduit.runs.crons.CronScheduler;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * LangGraph's crons judged by the official SDK in both lines (1.15.0, and 2.0.0 as {@code langgraph-sdk-2}), with
 * src/test/js/langgraph-sdk-crons.mjs: create, createForThread, search, count, update, delete and the bad requests;
 * then a tick. The scheduler's timer is off here, so the test decides when a tick comes: it makes the thread's cron due
 * (its next run a second ago, through the store) and looks for due crons once ({@link CronScheduler#poll}); the
 * script then finds the run on the thread and joins it. No clock is waited on. Run on each store by its subclasses.
 */
abstract class LangGraphSdkCronsContract {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Inject
    CronStore store;

    @Inject
    CronScheduler scheduler;

    @Test
    void sdk1() throws Exception {
        passes("@langchain/langgraph-sdk");
    }

    @Test
    void sdk2() throws Exception {
        passes("langgraph-sdk-2");
    }

    private void passes(String pkg) throws Exception {
        String url = "http://localhost:" + port;
        JsonNode api = io.conduit.NodeClient.run("langgraph-sdk-crons.mjs", 120, url, pkg, "api");
        assertThat(api.get("checks").asInt()).as("checks the client made").isGreaterThan(40);
        String cronId = api.get("cron_id").asText();

        Cron cron = store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow();
        Instant nextTick = cron.nextRunDate();
        assertThat(nextTick).isAfter(Instant.now());
        Instant due = Instant.now().minusSeconds(1);
        store.update(cron.cronId(), c -> c.withNextRunDate(due)).await().atMost(Duration.ofSeconds(10));

        assertThat(scheduler.poll().await().atMost(Duration.ofSeconds(30))).as("crons claimed").isEqualTo(1);
        assertThat(scheduler.poll().await().atMost(Duration.ofSeconds(30))).as("the tick is claimed once").isZero();
        assertThat(store.get(cronId).await().atMost(Duration.ofSeconds(10)).orElseThrow().nextRunDate())
                .as("the next tick is the schedule's next hour").isAfter(Instant.now()).isEqualTo(cron.nextAfter(Instant.now()));

        JsonNode fired = io.conduit.NodeClient.run("langgraph-sdk-crons.mjs", 120, url, pkg, "fired", cronId, api.get("thread_id").asText());
        assertThat(fired.get("checks").asInt()).isGreaterThan(5);
    }
}
