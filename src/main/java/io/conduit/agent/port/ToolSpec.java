package io.conduit.agent.port;

/** A tool as the model sees it: name, what it does, and the JSON schema of its arguments (as JSON text). */
public record ToolSpec(String name, String description, String parametersSchema) {
}
