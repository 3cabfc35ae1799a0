package io.conduit.llm;

/** One attempt at a call failed; carries whether the caller had already seen output, which rules out a retry. */
final class AttemptFailure extends RuntimeException {

    private final boolean outputStarted;

    AttemptFailure(Throwable cause, boolean outputStarted) {
        super(cause.getMessage(), cause, false, false);
        this.outputStarted = outputStarted;
    }

    boolean outputStarted() {
        return outputStarted;
    }

    boolean retryable() {
        return !outputStarted && CallFailure.of(getCause()).transientFailure();
    }
}
