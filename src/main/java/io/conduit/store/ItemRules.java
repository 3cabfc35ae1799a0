package io.conduit.store;

import io.conduit.checkpoint.StorableText;
import java.util.List;
import java.util.Map;

/**
 * What every store accepts, checked alike by each (so the in-memory store refuses what Postgres could not keep): a
 * namespace as {@link Namespaces#check} says, a key of 1 to {@value #MAX_KEY_CHARS} characters, and keys and values
 * of storable text ({@link StorableText}: no NUL, no lone surrogate). A refusal is an {@link IllegalArgumentException}
 * whose message names what was wrong, returned rather than thrown so that a store answers it as a failed {@code Uni}.
 */
public final class ItemRules {

    public static final int MAX_KEY_CHARS = 256;

    private ItemRules() {
    }

    /** Why an item cannot be named so, or null. */
    public static IllegalArgumentException refusal(List<String> namespace, String key) {
        try {
            Namespaces.check(namespace);
            checkKey(key);
            return null;
        } catch (IllegalArgumentException e) {
            return e;
        }
    }

    /** Why an item cannot be stored so, or null. */
    public static IllegalArgumentException refusal(List<String> namespace, String key, Map<String, Object> value) {
        IllegalArgumentException named = refusal(namespace, key);
        if (named != null) {
            return named;
        }
        StorableText.Problem p = StorableText.find(value, "value");
        return p == null ? null : new IllegalArgumentException(p.path() + " " + p.reason());
    }

    /** Why this search cannot be made (its prefix, its filter), or null. */
    public static IllegalArgumentException refusal(StoreSearch search) {
        IllegalArgumentException prefix = refusal(search.prefix());
        if (prefix != null) {
            return prefix;
        }
        StorableText.Problem p = StorableText.find(search.filter(), "filter");
        return p == null ? null : new IllegalArgumentException(p.path() + " " + p.reason());
    }

    /** Why a search or a listing cannot be made with this prefix (or suffix), or null. */
    public static IllegalArgumentException refusal(List<String> labels) {
        try {
            Namespaces.checkLabels(labels);
            return null;
        } catch (IllegalArgumentException e) {
            return e;
        }
    }

    /** Throws {@link IllegalArgumentException} unless {@code key} is one. */
    public static void checkKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("a key is a non-empty string");
        }
        if (key.length() > MAX_KEY_CHARS) {
            throw new IllegalArgumentException("a key has at most " + MAX_KEY_CHARS + " characters, not " + key.length());
        }
        String problem = StorableText.problem(key);
        if (problem != null) {
            throw new IllegalArgumentException("a key " + problem);
        }
    }
}
