package io.conduit.llm;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The Quarkus runtime without the agent wiring: these tests need only the REST client the OpenAI model runs on, and
 * should not stop working while the agent's other ports (tools, memory) are being built.
 */
public class LlmOnlyProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.arc.exclude-types", "io.conduit.agent.AgentGraphProducer,io.conduit.api.DevRunResource");
    }
}
