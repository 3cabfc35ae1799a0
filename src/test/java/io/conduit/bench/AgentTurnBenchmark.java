package io.conduit.bench;

import io.conduit.agent.AgentConfig;
import io.conduit.agent.AgentGraph;
import io.conduit.agent.AgentState;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.UserMemory;
import io.conduit.agent.message.UserMessage;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.RunRequest;
import io.conduit.graph.Update;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * End-to-end agent turns on the built-in simulator with zero delays, over real HTTP through LangChain4j: how much
 * time the engine adds to a turn beyond the model calls. A harness, not a test (tag {@code bench}, excluded from
 * {@code ./mvnw test}); run it with
 * {@code ./mvnw test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=AgentTurnBenchmark}
 * ({@link AgentTurnInProcessBenchmark}: the same with the simulated model in-process, no HTTP).
 *
 * <p>Method: the service's model is wrapped so that the time from subscribing to a model call to its last event is
 * summed; the engine's share of a turn is the turn's time minus that (ingress, routing, tools, the verifier and the
 * summarizer's check, checkpoints, events). Checkpoints in memory here: Postgres adds its commits, measured in
 * EngineBenchmark.
 */
@QuarkusTest
@Tag("bench")
@TestProfile(AgentTurnBenchmark.InMemory.class)
class AgentTurnBenchmark {

    /** Engine cost alone: checkpoints in memory, simulator without delays. */
    public static class InMemory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.checkpointer.store", "memory",
                    "conduit.simulator.time-to-first-token", "0s",
                    "conduit.simulator.inter-token-delay", "0s");
        }
    }

    @Inject
    AgentConfig config;
    @Inject
    LanguageModel model;
    @Inject
    ToolBox tools;
    @Inject
    UserMemory memory;
    @Inject
    Checkpointer store;

    private final AtomicLong modelNanos = new AtomicLong();

    @Test
    void engineTimePerTurnBeyondTheModel() {
        LanguageModel timed = request -> Multi.createFrom().deferred(() -> {
            long t0 = System.nanoTime();
            return model.stream(request).onTermination().invoke(() -> modelNanos.addAndGet(System.nanoTime() - t0));
        });
        CompiledGraph agent = AgentGraph.compile(config, timed, tools, memory, null, Clock.systemUTC(), store);
        int warmup = Integer.getInteger("bench.warmup", 300);
        int n = Integer.getInteger("bench.turns", 1000);
        measure(agent, "a simple question (one model call)", "hello there", warmup, n);
        measure(agent, "a tool turn (two parallel tools, a re-plan, 3 model calls)", "Please plan my week", warmup / 3, n / 3);
    }

    private void measure(CompiledGraph agent, String label, String message, int warmup, int n) {
        for (int i = 0; i < warmup; i++) {
            turn(agent, message);
        }
        modelNanos.set(0);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            turn(agent, message);
        }
        double turnMs = (System.nanoTime() - t0) / 1e6 / n;
        double modelMs = modelNanos.get() / 1e6 / n;
        System.out.println(String.format(Locale.ROOT,
                "agent/%s, %s: %d turns: %.3f ms per turn, %.3f ms of it in model calls, the engine adds %.3f ms per turn",
                modelLabel(), label, n, turnMs, modelMs, turnMs - modelMs));
    }

    /** Which model the turns call, for the output. */
    String modelLabel() {
        return "simulator over HTTP";
    }

    private static void turn(CompiledGraph agent, String message) {
        GraphEvent end = agent.stream(RunRequest.on("bench-" + UUID.randomUUID())
                        .input(Update.of(AgentState.MESSAGES, (ChatMessage) UserMessage.of(message))))
                .collect().last().await().indefinitely();
        if (!(end instanceof GraphEvent.RunFinished)) {
            throw new IllegalStateException("turn ended with " + end);
        }
    }
}
