package io.conduit.telemetry;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.delivery.StreamTransport;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A real run (the built-in simulator answers "what time is it" with a tool call, then text) moves the series
 * docs/observability.md lists at {@code /q/metrics}: runs by assistant and outcome, node, run and first-token
 * histograms, model calls and tokens, tool calls by tool, checkpoint writes (time and size) and the Postgres pool; the
 * serving gauges are there, open streams by transport.
 */
@QuarkusTest
@TestProfile(MetricsEndpointTest.OwnApp.class)
class MetricsEndpointTest {

    /** An app of its own: the shared one may still be ending other tests' runs, which would move the same series. */
    public static class OwnApp implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.test.metrics", "own-app");
        }
    }

    @Test
    void aRunMovesItsSeries() {
        PromText before = PromText.scrape();
        String thread = "metrics-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        given().contentType("application/json").body(Map.of("assistant_id", "agent",
                        "input", Map.of("messages", List.of(Map.of("role", "user", "content", "what time is it?")))))
                .post("/threads/" + thread + "/runs/wait").then().statusCode(200);
        PromText after = PromText.scrape();

        String run = "graph_id=\"agent\",outcome=\"success\"";
        assertThat(after.value("conduit_runs_total", run) - before.value("conduit_runs_total", run)).isEqualTo(1);
        assertThat(after.value("conduit_run_duration_seconds_count", run) - before.value("conduit_run_duration_seconds_count", run)).isEqualTo(1);
        assertThat(after.sum("conduit_run_duration_seconds_bucket", run + ",le=\"+Inf\"")).isGreaterThanOrEqualTo(1);
        assertThat(after.sum("conduit_run_first_token_seconds_count", "graph_id=\"agent\"")
                - before.sum("conduit_run_first_token_seconds_count", "graph_id=\"agent\"")).isEqualTo(1);
        assertThat(after.sum("conduit_node_duration_seconds_count", "graph_id=\"agent\"")
                - before.sum("conduit_node_duration_seconds_count", "graph_id=\"agent\"")).isGreaterThanOrEqualTo(2);
        assertThat(after.sum("conduit_model_calls_total", "outcome=\"success\"")
                - before.sum("conduit_model_calls_total", "outcome=\"success\"")).isGreaterThanOrEqualTo(2);
        assertThat(after.sum("conduit_model_tokens_total", "type=\"output\"")
                - before.sum("conduit_model_tokens_total", "type=\"output\"")).isPositive();
        assertThat(after.sum("conduit_model_tokens_total", "type=\"input\"")
                - before.sum("conduit_model_tokens_total", "type=\"input\"")).isPositive();
        String tool = "outcome=\"success\",tool=\"get_current_time\"";
        assertThat(after.sum("conduit_tool_calls_total", tool) - before.sum("conduit_tool_calls_total", tool))
                .as(String.join("\n", after.lines().stream().filter(l -> l.startsWith("conduit_tool")).toList())).isEqualTo(1);

        assertThat(after.has("conduit_runs_active")).isTrue();
        assertThat(after.value("conduit_runs_active", "")).isZero();
        assertThat(after.has("conduit_runs_queued")).isTrue();
        for (StreamTransport t : StreamTransport.values()) {
            assertThat(after.lines()).as(t.label()).anyMatch(l -> l.startsWith("conduit_streams_open{transport=\"" + t.label() + "\"}"));
        }
        assertThat(after.has("conduit_streams_max")).isTrue();
        assertThat(after.has("conduit_slow_consumer_disconnects_total")).isTrue();
        assertThat(after.value("conduit_event_log_bytes", "")).isPositive();
        assertThat(after.has("conduit_event_loop_lag_seconds_count")).isTrue();

        // the tests' store is Postgres (%test.conduit.checkpointer.store): its writes are timed and sized
        String checkpoints = "kind=\"checkpoint\",store=\"postgres\"";
        assertThat(after.value("conduit_checkpoint_write_duration_seconds_count", checkpoints)
                - before.value("conduit_checkpoint_write_duration_seconds_count", checkpoints)).isGreaterThanOrEqualTo(2);
        assertThat(after.sum("conduit_checkpoint_write_duration_seconds_bucket", checkpoints + ",le=\"+Inf\"")).isGreaterThanOrEqualTo(2);
        assertThat(after.value("conduit_checkpoint_write_bytes_count", checkpoints)
                - before.value("conduit_checkpoint_write_bytes_count", checkpoints)).isGreaterThanOrEqualTo(2);
        assertThat(after.value("conduit_checkpoint_write_bytes_sum", checkpoints)
                - before.value("conduit_checkpoint_write_bytes_sum", checkpoints)).isPositive();
        // the other kinds are there from the start (this run may write neither)
        assertThat(after.lines()).anyMatch(l -> l.startsWith("conduit_checkpoint_write_duration_seconds_count{kind=\"pending_writes\",store=\"postgres\"}"))
                .anyMatch(l -> l.startsWith("conduit_checkpoint_write_bytes_count{kind=\"snapshot\",store=\"postgres\"}"));

        // the reactive Postgres pool, from Quarkus' Vert.x metrics: the run's statements went through it
        String pool = "pool_type=\"sql\"";
        assertThat(after.sum("sql_pool_completed_total", pool) - before.sum("sql_pool_completed_total", pool)).isGreaterThanOrEqualTo(2);
        assertThat(after.lines()).anyMatch(l -> l.startsWith("sql_pool_active{") && l.contains(pool))
                .anyMatch(l -> l.startsWith("sql_pool_idle{") && l.contains(pool))
                .anyMatch(l -> l.startsWith("sql_pool_queue_size{") && l.contains(pool))
                .anyMatch(l -> l.startsWith("sql_pool_queue_delay_seconds_count{") && l.contains(pool));
    }

    /**
     * The JVM's series are bound by {@link JvmMeters} once the server is up (not by Quarkus at start): the same names
     * Quarkus gives them. Bound on a worker just after start, so the test waits for them, within a bound.
     */
    @Test
    void theJvmSeriesAreThere() throws InterruptedException {
        List<String> series = List.of("jvm_memory_used_bytes{", "jvm_gc_overhead", "jvm_threads_live_threads",
                "jvm_classes_loaded_classes", "jvm_info", "jvm_gc_memory_allocated_bytes_total");
        PromText last = PromText.scrape();
        for (int i = 0; i < 200 && !hasAll(last, series); i++) {
            Thread.sleep(50); // a bounded wait for the binding, not a timing assertion
            last = PromText.scrape();
        }
        for (String s : series) {
            assertThat(last.lines()).as(s).anyMatch(l -> l.startsWith(s));
        }
        // bound once: one jvm_info series, not one per HTTP server started
        assertThat(last.lines().stream().filter(l -> l.startsWith("jvm_info"))).hasSize(1);
    }

    private static boolean hasAll(PromText scrape, List<String> series) {
        return series.stream().allMatch(s -> scrape.lines().stream().anyMatch(l -> l.startsWith(s)));
    }

    @Test
    void anOpenStreamIsCountedUnderItsTransport() throws Exception {
        String thread = "metrics-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        PromText before = PromText.scrape();
        // a thread's classic SSE stream stays open; its headers go out once it holds its permit
        HttpResponse<InputStream> open = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/threads/" + thread + "/stream")).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = open.body()) {
            assertThat(open.statusCode()).isEqualTo(200);
            PromText during = PromText.scrape();
            String classic = "transport=\"classic_sse\"";
            assertThat(during.value("conduit_streams_open", classic) - before.value("conduit_streams_open", classic)).isEqualTo(1);
            assertThat(during.value("conduit_streams_open", "transport=\"protocol_ws\"")
                    - before.value("conduit_streams_open", "transport=\"protocol_ws\"")).isZero();
        }
    }
}
