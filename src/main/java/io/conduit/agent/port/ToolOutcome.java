package io.conduit.agent.port;

/**
 * How a tool call ended, as the model will read it: the (redacted) content, or an error text when it failed.
 * {@code timedOut} says the failure was the tool (or the service behind it) not answering in time, so a caller can
 * tell the model so in its own words.
 */
public record ToolOutcome(String content, boolean error, int attempts, boolean timedOut) {

    public ToolOutcome(String content, boolean error, int attempts) {
        this(content, error, attempts, false);
    }
}
