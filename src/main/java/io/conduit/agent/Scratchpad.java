package io.conduit.agent;

import java.util.HashMap;
import java.util.Map;

/** Working notes of the current turn (why the verifier re-planned, for example); ingress clears it. */
public record Scratchpad(Map<String, String> notes) {

    public static final Scratchpad EMPTY = new Scratchpad(Map.of());

    public Scratchpad {
        notes = notes == null ? Map.of() : Map.copyOf(notes);
    }

    public Scratchpad with(String key, String value) {
        Map<String, String> m = new HashMap<>(notes);
        m.put(key, value);
        return new Scratchpad(m);
    }
}
