package io.conduit.runs;

/** A thread, run or assistant that does not exist (404). */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
