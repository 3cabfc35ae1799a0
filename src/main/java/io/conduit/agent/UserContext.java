package io.conduit.agent;

import java.util.Map;

/** What ingress loaded about the user: profile entries and long-term memories, by key. */
public record UserContext(Map<String, String> memories) {

    public static final UserContext EMPTY = new UserContext(Map.of());

    public UserContext {
        memories = memories == null ? Map.of() : Map.copyOf(memories);
    }
}
