package io.conduit.agent.port;

import java.util.Map;

/**
 * What a tool may know of the run it serves, for arguments injected from state rather than chosen by the model
 * (the user id, the subject of a tutoring session): {@code values} by name.
 */
public record ToolScope(String threadId, String userId, Map<String, Object> values) {
}
