package io.conduit.runs;

/** {@code POST /threads} with an id that exists, and {@code if_exists=raise}. */
public class ThreadExistsException extends RuntimeException {
    public ThreadExistsException(String threadId) {
        super("Thread " + threadId + " already exists");
    }
}
