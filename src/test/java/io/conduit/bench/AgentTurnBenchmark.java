package io.conduit.bench;

import io.conduit.agent.AgentState;
import io.conduit.agent.ChatMessage;
import io.conduit.agent.LanguageModel;
import io.conduit.agent.ModelRequest;
import io.conduit.agent.ModelRole;
import io.conduit.agent.SystemMessage;
import io.conduit.agent.ToolBox;
import io.conduit.agent.UserMessage;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.RunRequest;
import io.conduit.graph.Update;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * End-to-end agent turns on the built-in simulator with zero delays, over real HTTP through LangChain4j: how much
 * time the engine adds to a turn beyond the model calls. A harness, not a test (tag {@code bench}, excluded from
 * {@code ./mvnw test}); run it with
 * {@code ./mvnw test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=AgentTurnBenchmark}.
 *
 * <p>Method: a simple question makes one planner call and no tool call. The same planner request is timed alone
 * (N direct calls to the model), then N whole turns on fresh threads; the difference is the engine's share:
 * ingress, routing, the summarizer's check, checkpoints (in memory here), events.
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
    CompiledGraph agent;
    @Inject
    LanguageModel model;
    @Inject
    ToolBox tools;

    @Test
    void engineTimePerTurnBeyondTheModel() {
        int warmup = Integer.getInteger("bench.warmup", 300);
        int n = Integer.getInteger("bench.turns", 1000);
        for (int i = 0; i < warmup; i++) {
            directCall();
            turn();
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            directCall();
        }
        double modelMs = (System.nanoTime() - t0) / 1e6 / n;
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            turn();
        }
        double turnMs = (System.nanoTime() - t1) / 1e6 / n;
        System.out.println(String.format(Locale.ROOT,
                "agent/simulator: %d turns: %.3f ms per turn, %.3f ms per planner call alone, engine adds %.3f ms per turn",
                n, turnMs, modelMs, turnMs - modelMs));
    }

    private void directCall() {
        List<ChatMessage> messages = List.of(new SystemMessage("system", "You are a helpful assistant."), UserMessage.of("hello there"));
        model.stream(new ModelRequest(ModelRole.PLANNER, messages, tools.specs())).collect().last().await().indefinitely();
    }

    private void turn() {
        GraphEvent end = agent.stream(RunRequest.on("bench-" + UUID.randomUUID())
                        .input(Update.of(AgentState.MESSAGES, (ChatMessage) UserMessage.of("hello there"))))
                .collect().last().await().indefinitely();
        if (!(end instanceof GraphEvent.RunFinished)) {
            throw new IllegalStateException("turn ended with " + end);
        }
    }
}
