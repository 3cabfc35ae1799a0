package io.conduit.telemetry;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * With tracing on, a run started by a request that carries a {@code traceparent} continues that trace: a span for the
 * run, one per node task under it, and under the nodes a span per model call (GenAI attributes: system, model, token
 * usage) and per tool call.
 */
@QuarkusTest
@TestProfile(RunTracesTest.TracingOn.class)
class RunTracesTest {

    public static class TracingOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.otel.sdk.disabled", "false", "quarkus.otel.bsp.schedule.delay", "0.01s");
        }
    }

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aRunContinuesTheCallersTraceWithNodesAndCallsNestedUnderIt() throws Exception {
        spans.reset();
        String thread = "traces-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        given().contentType("application/json").header("traceparent", "00-" + TRACE + "-00f067aa0ba902b7-01")
                .body(Map.of("assistant_id", "agent", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "what time is it?")))))
                .post("/threads/" + thread + "/runs/wait").then().statusCode(200);

        List<SpanData> all = await(s -> s.stream().anyMatch(d -> d.getName().startsWith("run ") && thread.equals(attr(d, RunSpans.THREAD_ID))));
        SpanData run = all.stream().filter(d -> d.getName().equals("run agent") && thread.equals(attr(d, RunSpans.THREAD_ID))).findFirst().orElseThrow();
        assertThat(run.getTraceId()).as("the caller's trace goes on").isEqualTo(TRACE);
        assertThat(attr(run, RunSpans.RUN_STATUS)).isEqualTo("success");

        // under the run: its node tasks (and the database calls the worker makes for it)
        List<SpanData> nodes = all.stream().filter(d -> d.getParentSpanId().equals(run.getSpanId()) && d.getName().startsWith("node ")).toList();
        assertThat(nodes).hasSizeGreaterThanOrEqualTo(2);
        List<String> nodeIds = nodes.stream().map(SpanData::getSpanId).toList();
        List<SpanData> calls = all.stream().filter(d -> nodeIds.contains(d.getParentSpanId())).toList();

        SpanData chat = calls.stream().filter(d -> d.getName().startsWith("chat ")).findFirst().orElseThrow();
        assertThat(attr(chat, RunSpans.OPERATION)).isEqualTo("chat");
        assertThat(attr(chat, RunSpans.SYSTEM)).isNotBlank();
        assertThat(attr(chat, RunSpans.REQUEST_MODEL)).isNotBlank();
        assertThat(chat.getAttributes().get(RunSpans.INPUT_TOKENS)).isPositive();
        assertThat(chat.getAttributes().get(RunSpans.OUTPUT_TOKENS)).isPositive();

        SpanData tool = calls.stream().filter(d -> d.getName().equals("execute_tool get_current_time")).findFirst().orElseThrow();
        assertThat(attr(tool, RunSpans.TOOL_NAME)).isEqualTo("get_current_time");
        assertThat(tool.getTraceId()).isEqualTo(TRACE);
    }

    private static String attr(SpanData d, AttributeKey<String> key) {
        return d.getAttributes().get(key);
    }

    /** The exporter's spans once the run's span has been exported (the batch processor hands them over shortly). */
    private List<SpanData> await(Predicate<List<SpanData>> done) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            List<SpanData> s = spans.getFinishedSpanItems();
            if (done.test(s)) {
                return s;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the run's span was never exported: " + spans.getFinishedSpanItems());
    }
}
