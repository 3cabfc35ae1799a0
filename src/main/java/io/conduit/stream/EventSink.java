package io.conduit.stream;

/**
 * Where a connection's frames go, in call order: answers and events, each one JSON message. Implementations never
 * block (they are called while the thread's event log is locked) and drop a client that cannot keep up.
 */
public interface EventSink {

    void send(String json);
}
