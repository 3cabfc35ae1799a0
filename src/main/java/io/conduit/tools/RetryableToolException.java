package io.conduit.tools;

/** A failure worth another try (a busy or briefly unreachable service); other failures are final. */
public class RetryableToolException extends RuntimeException {

    public RetryableToolException(String message) {
        super(message);
    }

    public RetryableToolException(String message, Throwable cause) {
        super(message, cause);
    }
}
