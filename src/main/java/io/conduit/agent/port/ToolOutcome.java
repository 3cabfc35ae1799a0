package io.conduit.agent.port;

/** How a tool call ended, as the model will read it: the (redacted) content, or an error text when it failed. */
public record ToolOutcome(String content, boolean error, int attempts) {
}
