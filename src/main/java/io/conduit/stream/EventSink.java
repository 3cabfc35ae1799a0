package io.conduit.stream;

import io.conduit.runs.events.RunEvent;

/**
 * Where a connection's frames go, in call order: command answers and events, each one JSON message. Implementations
 * never block (they are called while the thread's event log is locked) and drop a client that cannot keep up.
 */
public interface EventSink {

    /** A command's answer, in order with the events before and after it. */
    void answer(String json);

    /** An event the log already held: a subscription's replay (the log keeps it, so it is not held against the client). */
    void replay(RunEvent e);

    /** A live event. */
    void event(RunEvent e);
}
