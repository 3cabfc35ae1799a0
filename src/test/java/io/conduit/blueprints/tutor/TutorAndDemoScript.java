package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * For a test that talks to both the default agent and the tutor (the chat page's): the tutor's stub retrieval
 * service, and a simulator script made of the tutor test script's rules followed by the shipped demo script's rules
 * and its default answer.
 */
public class TutorAndDemoScript implements QuarkusTestResourceLifecycleManager {

    private StubRetrieval stub;
    private Path script;

    @Override
    public Map<String, String> start() {
        try {
            stub = new StubRetrieval();
            ObjectNode tutor = (ObjectNode) JsonCodec.MAPPER.readTree(TutorTestResources.SCRIPT.toFile());
            ObjectNode demo;
            try (InputStream in = TutorAndDemoScript.class.getClassLoader().getResourceAsStream("simulator/script.json")) {
                demo = (ObjectNode) JsonCodec.MAPPER.readTree(in);
            }
            ((ArrayNode) tutor.get("rules")).addAll((ArrayNode) demo.get("rules"));
            tutor.set("default", demo.get("default"));
            script = Files.createTempFile("tutor-and-demo", ".json");
            Files.writeString(script, JsonCodec.MAPPER.writeValueAsString(tutor));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> config = new HashMap<>(stub.config());
        config.put("conduit.simulator.script", script.toString());
        return config;
    }

    @Override
    public void stop() {
        if (stub != null) {
            stub.close();
        }
        if (script != null) {
            script.toFile().delete();
        }
    }
}
