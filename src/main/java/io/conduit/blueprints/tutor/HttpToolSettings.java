package io.conduit.blueprints.tutor;

import io.conduit.tools.ToolsConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An HTTP tool's settings made in code (the tutor's own tools) rather than read from {@code conduit.tools.http.*}. */
record HttpToolSettings(String url, String method, String description, String schema, List<String> injectedNames,
                        Duration requestTimeout, Map<String, String> headers, int maxResponseChars) implements ToolsConfig.HttpToolConfig {

    @Override
    public Optional<List<String>> injected() {
        return Optional.of(injectedNames);
    }

    @Override
    public Optional<Duration> timeout() {
        return Optional.of(requestTimeout);
    }
}
