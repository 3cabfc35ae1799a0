package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a subscription receives: channels (required), namespace prefixes (none: every namespace) and a depth (how many
 * segments below the prefix; null: any). A filter segment without {@code :} also matches a segment
 * {@code <name>:<suffix>}, so {@code ["model"]} matches the node namespace {@code ["model:<task id>"]}. Pure functions:
 * no state, no I/O.
 */
public record EventFilter(Set<String> channels, List<List<String>> namespaces, Integer depth) {

    /** The channels a client may name; {@code custom:<name>} is accepted too. */
    public static final Set<String> CHANNELS = Set.of("values", "updates", "messages", "tools", "lifecycle", "checkpoints", "tasks",
            "custom", "input");

    /**
     * Reads {@code {channels, namespaces?, depth?}}. {@code strictChannels}: an unknown channel is refused (the
     * WebSocket); otherwise it is kept and matches nothing (the SSE transport, as LangGraph's server does).
     */
    public static EventFilter parse(JsonNode params, boolean strictChannels) {
        JsonNode ch = params.get("channels");
        if (ch == null || !ch.isArray() || ch.isEmpty()) {
            throw ProtocolException.invalid("channels is required: a non-empty list of " + String.join(", ", new java.util.TreeSet<>(CHANNELS)));
        }
        Set<String> channels = new LinkedHashSet<>();
        for (JsonNode c : ch) {
            if (!c.isTextual()) {
                throw ProtocolException.invalid("channels must be strings");
            }
            String name = c.asText();
            if (strictChannels && !known(name)) {
                throw ProtocolException.invalid("unknown channel " + name + "; known: " + String.join(", ", new java.util.TreeSet<>(CHANNELS)) + ", custom:<name>");
            }
            channels.add(name);
        }
        List<List<String>> namespaces = null;
        JsonNode ns = params.get("namespaces");
        if (ns != null && !ns.isNull()) {
            if (!ns.isArray()) {
                throw ProtocolException.invalid("namespaces must be a list of namespaces (each a list of strings)");
            }
            namespaces = new ArrayList<>();
            for (JsonNode n : ns) {
                if (!n.isArray()) {
                    throw ProtocolException.invalid("each namespace is a list of strings");
                }
                List<String> segments = new ArrayList<>();
                for (JsonNode s : n) {
                    if (!s.isTextual()) {
                        throw ProtocolException.invalid("namespace segments must be strings");
                    }
                    segments.add(s.asText());
                }
                namespaces.add(List.copyOf(segments));
            }
        }
        Integer depth = null;
        JsonNode d = params.get("depth");
        if (d != null && !d.isNull()) {
            if (!d.canConvertToInt() || !d.isIntegralNumber() || d.asInt() < 0) {
                throw ProtocolException.invalid("depth must be a whole number, 0 or more");
            }
            depth = d.asInt();
        }
        return new EventFilter(Set.copyOf(channels), namespaces == null ? null : List.copyOf(namespaces), depth);
    }

    private static boolean known(String channel) {
        return CHANNELS.contains(channel) || (channel.startsWith("custom:") && channel.length() > 7);
    }

    /** The channel of an event's method: {@code input.*} → {@code input}, {@code custom:<name>} → itself. */
    public static String channelOf(String method) {
        return method.startsWith("input.") ? "input" : method;
    }

    /** {@code method} is the event's method; {@code namespace} its segments ({@code []} at the root). */
    public boolean matches(String method, List<String> namespace) {
        return matchesChannel(method) && matchesNamespace(namespace);
    }

    /**
     * {@link #matches(String, List)} on a log event's namespace as the log keeps it ({@code RunEvent.ns}); parsed only
     * when this filter looks at namespaces (most follow every namespace, and this runs for every event).
     */
    public boolean matches(String method, String ns) {
        if (!matchesChannel(method)) {
            return false;
        }
        if (namespaces == null && depth == null) {
            return true;
        }
        return matchesNamespace(segments(ns));
    }

    boolean matchesChannel(String method) {
        String channel = channelOf(method);
        if (channels.contains(channel)) {
            return true;
        }
        return channel.startsWith("custom:") && channels.contains("custom");
    }

    boolean matchesNamespace(List<String> namespace) {
        if (namespaces == null) {
            return depth == null || namespace.size() <= depth;
        }
        for (List<String> prefix : namespaces) {
            if (isPrefix(prefix, namespace) && (depth == null || namespace.size() - prefix.size() <= depth)) {
                return true;
            }
        }
        return false;
    }

    static boolean isPrefix(List<String> prefix, List<String> namespace) {
        if (prefix.size() > namespace.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            if (!segmentMatches(prefix.get(i), namespace.get(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean segmentMatches(String filter, String segment) {
        return filter.equals(segment) || (filter.indexOf(':') < 0 && segment.startsWith(filter + ":"));
    }

    /** The segments of a log event's namespace ({@code RunEvent.ns}, segments joined by {@code |}). */
    public static List<String> segments(String ns) {
        return ns == null || ns.isEmpty() ? List.of() : List.of(ns.split("\\|", -1));
    }
}
