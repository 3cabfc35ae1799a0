package io.conduit.store;

import io.conduit.checkpoint.StorableText;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Namespace rules and matching, shared by every store. A namespace is stored as its labels joined by {@code .}.
 * It is bounded, as thread ids are: at most {@value #MAX_LABELS} labels of at most {@value #MAX_LABEL_CHARS}
 * characters, {@value #MAX_CHARS} in all once joined (with a key of at most {@link ItemRules#MAX_KEY_CHARS}, the pair
 * stays within what PostgreSQL can index, whatever the characters).
 */
public final class Namespaces {

    public static final int MAX_LABELS = 16;
    /** As long as a run's user id, which {@link UserStore} makes a label. */
    public static final int MAX_LABEL_CHARS = 256;
    /** The labels joined by {@code .}. */
    public static final int MAX_CHARS = 512;

    private Namespaces() {
    }

    /** Throws {@link IllegalArgumentException} unless {@code namespace} has labels that {@link #checkLabels} accepts. */
    public static void check(List<String> namespace) {
        if (namespace == null || namespace.isEmpty()) {
            throw new IllegalArgumentException("namespace must have at least one label");
        }
        checkLabels(namespace);
    }

    /**
     * Like {@link #check}, but an empty list (a prefix of every namespace) is allowed: each label non-empty, without
     * {@code .}, storable text ({@link StorableText}), within the bounds above.
     */
    public static void checkLabels(List<String> labels) {
        if (labels.size() > MAX_LABELS) {
            throw new IllegalArgumentException("a namespace has at most " + MAX_LABELS + " labels, not " + labels.size());
        }
        int chars = Math.max(0, labels.size() - 1);
        for (String label : labels) {
            if (label == null || label.isEmpty() || label.indexOf('.') >= 0) {
                throw new IllegalArgumentException("namespace labels are non-empty strings without '.', got '" + label + "'");
            }
            if (label.length() > MAX_LABEL_CHARS) {
                throw new IllegalArgumentException("a namespace label has at most " + MAX_LABEL_CHARS + " characters, not " + label.length());
            }
            String problem = StorableText.problem(label);
            if (problem != null) {
                throw new IllegalArgumentException("a namespace label " + problem);
            }
            chars += label.length();
        }
        if (chars > MAX_CHARS) {
            throw new IllegalArgumentException("a namespace has at most " + MAX_CHARS + " characters in all (labels joined by '.'), not " + chars);
        }
    }

    public static String join(List<String> namespace) {
        return String.join(".", namespace);
    }

    public static List<String> split(String joined) {
        return List.of(joined.split("\\.", -1));
    }

    public static boolean startsWith(List<String> namespace, List<String> prefix) {
        return namespace.size() >= prefix.size() && namespace.subList(0, prefix.size()).equals(prefix);
    }

    /** The listing rules of {@link Store#namespaces}, over every namespace that holds an item. */
    public static List<List<String>> list(Collection<List<String>> all, List<String> prefix, List<String> suffix, Integer maxDepth,
                                          int limit, int offset) {
        TreeSet<List<String>> out = new TreeSet<>(Comparator.comparing(Namespaces::join));
        for (List<String> ns : all) {
            if (!startsWith(ns, prefix) || ns.size() < suffix.size() || !ns.subList(ns.size() - suffix.size(), ns.size()).equals(suffix)) {
                continue;
            }
            out.add(maxDepth != null && ns.size() > maxDepth ? List.copyOf(ns.subList(0, maxDepth)) : ns);
        }
        return new ArrayList<>(out).stream().skip(offset).limit(limit).toList();
    }
}
