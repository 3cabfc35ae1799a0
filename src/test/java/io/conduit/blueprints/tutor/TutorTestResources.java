package io.conduit.blueprints.tutor;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Starts the stub retrieval service before the app, and points the tutor and the simulator's script at the test's. */
public class TutorTestResources implements QuarkusTestResourceLifecycleManager {

    static final Path SCRIPT = Path.of("src", "test", "resources", "tutor", "script.json").toAbsolutePath();
    static volatile StubRetrieval stub;

    @Override
    public Map<String, String> start() {
        try {
            stub = new StubRetrieval();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> config = new HashMap<>(stub.config());
        config.put("conduit.simulator.script", SCRIPT.toString());
        return config;
    }

    @Override
    public void stop() {
        if (stub != null) {
            stub.close();
        }
    }
}
