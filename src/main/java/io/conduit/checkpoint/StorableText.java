package io.conduit.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Text that every store keeps exactly as it was given. Two kinds of character are not: NUL (U+0000), which
 * PostgreSQL's {@code text} and {@code jsonb} refuse (a 500 when they meet it), and a lone surrogate (half of a pair),
 * which UTF-8 cannot encode, so it would be stored as {@code ?} and two different strings would become one. Everything
 * else is kept: other control characters, surrogate pairs, U+FFFD. One rule for every store, the in-memory ones
 * included, so they refuse what Postgres cannot keep.
 */
public final class StorableText {

    /** Where a JSON value holds unstorable text ({@code path}, as {@code metadata.tags[2]}), and what it is. */
    public record Problem(String path, String reason) {
    }

    private StorableText() {
    }

    /** Why {@code text} cannot be stored, or null when it can. */
    public static String problem(String text) {
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return "contains a NUL character (U+0000), which cannot be stored";
            }
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return "contains a lone surrogate (U+" + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + "), which is not Unicode text";
            }
        }
        return null;
    }

    /**
     * The first unstorable text in a JSON tree, its object keys included, or null. {@code path} names the tree (a field,
     * or "" for a whole body); a bad key is reported at the object that holds it.
     */
    public static Problem find(JsonNode tree, String path) {
        if (tree == null) {
            return null;
        }
        if (tree.isTextual()) {
            String p = problem(tree.textValue());
            return p == null ? null : new Problem(path, p);
        }
        if (tree.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                Problem p = key(e.getKey(), path);
                if (p == null) {
                    p = find(e.getValue(), child(path, e.getKey()));
                }
                if (p != null) {
                    return p;
                }
            }
        } else if (tree.isArray()) {
            for (int i = 0; i < tree.size(); i++) {
                Problem p = find(tree.get(i), path + "[" + i + "]");
                if (p != null) {
                    return p;
                }
            }
        }
        return null;
    }

    /** As {@link #find(JsonNode, String)}, over a value made of maps, lists, strings and scalars (a decoded JSON value). */
    public static Problem find(Object value, String path) {
        switch (value) {
            case null -> {
                return null;
            }
            case String s -> {
                String p = problem(s);
                return p == null ? null : new Problem(path, p);
            }
            case Map<?, ?> m -> {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    String k = String.valueOf(e.getKey());
                    Problem p = key(k, path);
                    if (p == null) {
                        p = find(e.getValue(), child(path, k));
                    }
                    if (p != null) {
                        return p;
                    }
                }
                return null;
            }
            case List<?> l -> {
                for (int i = 0; i < l.size(); i++) {
                    Problem p = find(l.get(i), path + "[" + i + "]");
                    if (p != null) {
                        return p;
                    }
                }
                return null;
            }
            case JsonNode n -> {
                return find(n, path);
            }
            default -> {
                return null;
            }
        }
    }

    private static Problem key(String key, String path) {
        String p = problem(key);
        return p == null ? null : new Problem(path, "has a key that " + p);
    }

    private static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
