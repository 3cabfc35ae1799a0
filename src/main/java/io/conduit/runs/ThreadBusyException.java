package io.conduit.runs;

/** A run was refused because its thread already has a pending or running run (multitask strategy {@code reject}). */
public class ThreadBusyException extends RuntimeException {
    public ThreadBusyException(String threadId) {
        super("Thread " + threadId + " is already running a task. Wait for it to finish or choose a different multitask strategy.");
    }
}
