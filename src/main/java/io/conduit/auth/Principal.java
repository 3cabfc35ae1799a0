package io.conduit.auth;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is calling: the owner of what it creates. An admin sees everything; the anonymous principal (auth mode
 * {@code none}) too, and stamps no owner, so the service behaves as it did before authentication existed.
 */
public record Principal(String id, boolean admin, boolean anonymous) {

    /** The metadata key that names a thread's or an assistant's owner, as LangGraph's custom auth records it. */
    public static final String OWNER = "owner";

    public static final Principal ANONYMOUS = new Principal("anonymous", true, true);

    public static Principal user(String id, boolean admin) {
        return new Principal(id, admin, false);
    }

    /** Whether ownership limits this caller: not for an admin, nor for the anonymous principal of auth mode none. */
    public boolean restricted() {
        return !admin && !anonymous;
    }

    /** Whether the caller may see a record with this metadata: its owner, an admin, or anyone when it has no owner and the caller is unrestricted. */
    public boolean sees(Map<String, Object> metadata) {
        return !restricted() || id.equals(metadata == null ? null : metadata.get(OWNER));
    }

    /** {@code metadata} with the caller as owner (a client cannot name another); unchanged for the anonymous principal. */
    public Map<String, Object> stamp(Map<String, Object> metadata) {
        if (anonymous) {
            return metadata;
        }
        Map<String, Object> m = new HashMap<>(metadata == null ? Map.of() : metadata);
        m.put(OWNER, id);
        return m;
    }

    /** The store's namespace of users' own items: {@code ["users", <principal id>, ...]} is that principal's. */
    public static final String USERS = "users";

    /** Whether the caller may read and write items of {@code namespace}: any outside {@code users/…}, and its own inside. */
    public boolean mayUse(List<String> namespace) {
        return !restricted() || namespace.isEmpty() || !namespace.get(0).equals(USERS)
                || namespace.size() >= 2 && namespace.get(1).equals(id);
    }

    /**
     * A search's namespace prefix narrowed to what the caller may see: {@code ["users"]} becomes its own
     * {@code ["users", id]}; null when the prefix is inside another user's namespace (nothing to find).
     */
    public List<String> narrowPrefix(List<String> prefix) {
        if (!restricted() || prefix.isEmpty() || !prefix.get(0).equals(USERS)) {
            return prefix;
        }
        if (prefix.size() == 1) {
            return List.of(USERS, id);
        }
        return prefix.get(1).equals(id) ? prefix : null;
    }

    /** A search's metadata filter narrowed to what the caller owns; unchanged for an unrestricted caller. */
    public Map<String, Object> narrow(Map<String, Object> filter) {
        if (!restricted()) {
            return filter;
        }
        Map<String, Object> m = new HashMap<>(filter == null ? Map.of() : filter);
        m.put(OWNER, id);
        return m;
    }
}
