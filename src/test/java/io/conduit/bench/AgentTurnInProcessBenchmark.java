package io.conduit.bench;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Tag;

/**
 * {@link AgentTurnBenchmark} with {@code conduit.llm.provider=simulated}: the same script and turns, the model inside
 * the JVM instead of LangChain4j over HTTP, so "in model calls" is the simulated model's own cost. Run it with
 * {@code ./mvnw test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=AgentTurnInProcessBenchmark}.
 */
@QuarkusTest
@Tag("bench")
@TestProfile(AgentTurnInProcessBenchmark.InProcess.class)
class AgentTurnInProcessBenchmark extends AgentTurnBenchmark {

    /** As {@link AgentTurnBenchmark.InMemory}, with the in-process model. */
    public static class InProcess implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.checkpointer.store", "memory",
                    "conduit.llm.provider", "simulated",
                    "conduit.simulator.time-to-first-token", "0s",
                    "conduit.simulator.inter-token-delay", "0s");
        }
    }

    @Override
    String modelLabel() {
        return "simulated model in-process";
    }
}
