package io.conduit.llm;

/** The stream stopped without the provider saying it was done: cut short, or silent for too long. */
public class BrokenStream extends RuntimeException {

    public BrokenStream(String message) {
        super(message);
    }
}
