package io.conduit.runs;

/**
 * A run was asked on a thread that belongs to another graph. The thread's checkpoints hold that graph's channels,
 * which the run's graph would misread, so the run is refused (409) instead of running on a state it does not know.
 */
public class ThreadGraphMismatchException extends RuntimeException {
    public ThreadGraphMismatchException(String threadId, String threadGraph, String runGraph) {
        super("Thread " + threadId + " belongs to graph " + threadGraph + "; an assistant of graph " + runGraph
                + " cannot run on it. Start a new thread for graph " + runGraph + ".");
    }
}
