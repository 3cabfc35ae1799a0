package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.ToolScope;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Set;

/**
 * A tool the model can call. Make one a CDI bean and the registry finds it. {@link ToolExecutor} validates the
 * arguments against {@link #parametersSchema()} first, applies the timeout and the retry policy, and turns any
 * failure into an error result for the model.
 */
public interface Tool {

    String name();

    String description();

    /** JSON schema (as JSON text) of the arguments, the injected ones included. */
    String parametersSchema();

    Uni<String> execute(JsonNode arguments, ToolScope scope);

    /**
     * Arguments filled from the run's state rather than chosen by the model (a key of {@link ToolScope#values()},
     * such as {@code user_id}): hidden from the model, and whatever it sends for them is overwritten.
     */
    default Set<String> injected() {
        return Set.of();
    }

    /** A tool that blocks its thread; the executor runs it on a worker thread, never on an event loop. */
    default boolean blocking() {
        return false;
    }

    /** Its own timeout; null for the configured default. */
    default Duration timeout() {
        return null;
    }
}
