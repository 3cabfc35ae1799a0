package io.conduit.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/** Namespace rules and matching, shared by every store. A namespace is stored as its labels joined by {@code .}. */
public final class Namespaces {

    private Namespaces() {
    }

    /** Throws {@link IllegalArgumentException} unless {@code namespace} has labels, each non-empty and without {@code .}. */
    public static void check(List<String> namespace) {
        if (namespace == null || namespace.isEmpty()) {
            throw new IllegalArgumentException("namespace must have at least one label");
        }
        checkLabels(namespace);
    }

    /** Like {@link #check}, but an empty list (a prefix of every namespace) is allowed. */
    public static void checkLabels(List<String> labels) {
        for (String label : labels) {
            if (label == null || label.isEmpty() || label.indexOf('.') >= 0) {
                throw new IllegalArgumentException("namespace labels are non-empty strings without '.', got '" + label + "'");
            }
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
