package io.conduit.stream;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The protocol's open WebSocket connections, by connection id. */
@ApplicationScoped
public class OpenSockets {

    private final Map<String, SocketSession> sessions = new ConcurrentHashMap<>();

    void put(String id, SocketSession s) {
        sessions.put(id, s);
    }

    SocketSession get(String id) {
        return sessions.get(id);
    }

    void remove(String id) {
        sessions.remove(id);
    }

    /** How many are open (their subscriptions are live). */
    public int count() {
        return sessions.size();
    }

    /** How many subscriptions the connections on {@code threadId} hold. */
    public int subscriptions(String threadId) {
        int n = 0;
        for (SocketSession s : sessions.values()) {
            if (s.threadId.equals(threadId)) {
                n += s.subscriptions.size();
            }
        }
        return n;
    }
}
