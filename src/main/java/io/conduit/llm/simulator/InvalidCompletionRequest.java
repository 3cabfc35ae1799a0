package io.conduit.llm.simulator;

/**
 * A request the simulator refuses, as OpenAI would: a machine-readable {@code code} (OpenAI's own where it has one),
 * the offending {@code param} when there is one, and a sentence for people. Always a 400.
 */
final class InvalidCompletionRequest extends RuntimeException {

    private final String code;
    private final String param;

    InvalidCompletionRequest(String code, String param, String message) {
        super(message, null, false, false); // an answer to the client, not a failure: no stack trace to fill
        this.code = code;
        this.param = param;
    }

    String code() {
        return code;
    }

    String param() {
        return param;
    }
}
