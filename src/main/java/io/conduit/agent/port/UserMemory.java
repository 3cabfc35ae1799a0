package io.conduit.agent.port;

import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.Optional;

/** A user's long-term memories and profile, by key: loaded by ingress, written by the remember tool. */
public interface UserMemory {

    Uni<Map<String, String>> all(String userId);

    Uni<Optional<String>> get(String userId, String key);

    Uni<Void> put(String userId, String key, String value);
}
