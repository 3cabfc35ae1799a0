package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Set;

/**
 * A tool the model can call. Make one a CDI bean and the {@link ToolRegistry} finds it. {@link ToolExecutor} checks
 * the arguments against {@link #parametersSchema()} before the tool runs, applies the timeout and the retry policy,
 * redacts what comes back and turns any failure into an error outcome for the model.
 */
public interface Tool {

    /** Unique among all tools; what the model calls it by. */
    String name();

    /** What it does and when to use it, for the model. */
    String description();

    /** JSON schema (as JSON text) of the arguments, an object schema, the injected arguments included. */
    String parametersSchema();

    /**
     * Runs the tool on arguments that fit the schema (injected ones filled in). Must not block unless
     * {@link #blocking()} says so. Fail with {@link RetryableToolException} for a failure worth another try.
     */
    Uni<String> execute(JsonNode arguments, ToolScope scope);

    /**
     * Arguments filled from the run rather than chosen by the model: {@code user_id} (the run's user),
     * {@code thread_id}, or any key of {@link ToolScope#values()}. They are removed from the schema the model sees, and
     * whatever the model sends for them is overwritten, so it cannot act for another user.
     */
    default Set<String> injected() {
        return Set.of();
    }

    /** True for a tool that blocks its thread (JDBC, a blocking SDK): the executor then runs it on a worker thread. */
    default boolean blocking() {
        return false;
    }

    /** Its own timeout per attempt; null for {@code conduit.tools.timeout}. */
    default Duration timeout() {
        return null;
    }

    /** Secret values the tool holds (API keys, tokens): redacted from every outcome the model reads. */
    default Set<String> secrets() {
        return Set.of();
    }
}
