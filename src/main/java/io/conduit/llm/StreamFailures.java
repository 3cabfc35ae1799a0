package io.conduit.llm;

import io.conduit.agent.port.ModelException;

/** Turns what ended a call's attempts into the {@link ModelException} the agent reports. */
final class StreamFailures {

    private StreamFailures() {
    }

    static boolean retryable(Throwable failure) {
        return failure instanceof AttemptFailure a && a.retryable();
    }

    static ModelException toModelException(String provider, Throwable failure, int attempts) {
        if (failure instanceof ModelException already) {
            return already;
        }
        // after the last retry Mutiny reports "retries exhausted" with the attempt's failure as the cause
        AttemptFailure attempt = find(failure);
        Throwable cause = attempt == null ? failure : attempt.getCause();
        StringBuilder message = new StringBuilder(CallFailure.of(cause).description());
        if (attempt != null && attempt.outputStarted()) {
            message.append(" (after output had started; not retried)");
        } else if (attempts > 1) {
            message.append(" (gave up after ").append(attempts).append(" attempts)");
        }
        return new ModelException(provider, message.toString(), cause);
    }

    private static AttemptFailure find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AttemptFailure a) {
                return a;
            }
        }
        return null;
    }
}
