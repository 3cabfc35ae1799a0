package io.conduit.agent.port;

import java.time.Duration;
import java.util.Map;

/**
 * What a tool may know of the run it serves, for arguments injected from state rather than chosen by the model
 * (the user id, the subject of a tutoring session): {@code values} by name.
 */
public record ToolScope(String threadId, String userId, Map<String, Object> values, Duration timeout) {

    /** The tools' own timeouts apply. */
    public ToolScope(String threadId, String userId, Map<String, Object> values) {
        this(threadId, userId, values, null);
    }

    /**
     * The same scope whose calls each get {@code timeout} instead of the tool's own (a graph that allows its HTTP tools
     * more, or less, time than the tools' configuration); null keeps the tools' own.
     */
    public ToolScope withTimeout(Duration timeout) {
        return new ToolScope(threadId, userId, values, timeout);
    }
}
