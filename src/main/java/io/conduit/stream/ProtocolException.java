package io.conduit.stream;

/**
 * A command the thread protocol refuses, with one of its error codes ({@code invalid_argument},
 * {@code unknown_command}, {@code no_such_run}, {@code no_such_subscription}, {@code no_such_namespace},
 * {@code no_such_interrupt}, {@code no_such_checkpoint}, {@code permission_denied}, {@code not_supported},
 * {@code unknown_error}) and a sentence for people.
 */
public final class ProtocolException extends RuntimeException {

    private final String code;

    public ProtocolException(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }

    static ProtocolException invalid(String message) {
        return new ProtocolException("invalid_argument", message);
    }
}
