package io.conduit.agent.message;

/** A model's request to run a tool; {@code arguments} is the JSON object text the model produced. */
public record ToolCall(String id, String name, String arguments) {
}
