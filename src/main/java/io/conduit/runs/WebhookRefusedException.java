package io.conduit.runs;

/**
 * A run's {@code webhook} the server will not call: not an http(s) URL ({@code invalid_webhook}) or to a host not
 * listed in {@code conduit.webhooks.allowed-hosts} ({@code webhook_not_allowed}). Answered 422 with that code.
 */
public class WebhookRefusedException extends InvalidInputException {

    public static final String INVALID = "invalid_webhook";
    public static final String NOT_ALLOWED = "webhook_not_allowed";

    private final String code;

    public WebhookRefusedException(String code, String message) {
        super("webhook", message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
