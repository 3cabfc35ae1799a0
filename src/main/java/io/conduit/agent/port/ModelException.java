package io.conduit.agent.port;

/** A model call failed; the message names the provider and the cause, for the run's error event. */
public class ModelException extends RuntimeException {

    private final String provider;

    public ModelException(String provider, String message, Throwable cause) {
        super(provider + ": " + message, cause);
        this.provider = provider;
    }

    public String provider() {
        return provider;
    }
}
