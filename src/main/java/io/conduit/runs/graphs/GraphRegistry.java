package io.conduit.runs.graphs;

import io.conduit.graph.CompiledGraph;
import io.conduit.runs.ThreadRecord;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The graphs this service serves, by graph id. Each is also a system assistant whose id is LangGraph's:
 * {@code uuid5(6ba7b821-9dad-11d1-80b4-00c04fd430c8, graph_id)}, so clients that compute it find it.
 */
public final class GraphRegistry {

    private static final UUID NAMESPACE = UUID.fromString("6ba7b821-9dad-11d1-80b4-00c04fd430c8");

    /** The thread metadata key that records the thread's graph (LangGraph's). */
    public static final String GRAPH_ID = "graph_id";

    private final Map<String, RegisteredGraph> byId = new LinkedHashMap<>();

    public GraphRegistry(List<RegisteredGraph> graphs) {
        if (graphs.isEmpty()) {
            throw new IllegalStateException("no graph is registered");
        }
        for (RegisteredGraph g : graphs) {
            if (byId.put(g.graphId(), g) != null) {
                throw new IllegalStateException("two graphs share the graph id " + g.graphId());
            }
        }
    }

    public RegisteredGraph byGraphId(String graphId) {
        return graphId == null ? null : byId.get(graphId);
    }

    /** The default graph: the one a thread without runs is read with (the first registered, the default assistant's). */
    public RegisteredGraph defaultGraph() {
        return byId.values().iterator().next();
    }

    /**
     * The graph a thread's state is read and written with: the one recorded in its metadata ({@code graph_id}, set
     * when a run is created on it, as LangGraph does), or the default graph for a thread that has none recorded (no
     * run yet, or a graph id this service does not serve).
     */
    public RegisteredGraph forThread(ThreadRecord thread) {
        RegisteredGraph g = thread == null ? null : byGraphId(recordedGraphId(thread));
        return g == null ? defaultGraph() : g;
    }

    /** The graph id the thread's metadata records, or null. */
    public static String recordedGraphId(ThreadRecord thread) {
        return thread.metadata().get(GRAPH_ID) instanceof String s ? s : null;
    }

    public List<RegisteredGraph> all() {
        return List.copyOf(byId.values());
    }

    /** The system assistant id of a graph. */
    public static String assistantId(String graphId) {
        return uuid5(NAMESPACE, graphId).toString();
    }

    static UUID uuid5(UUID namespace, String name) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(toBytes(namespace));
            byte[] h = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
            h[6] = (byte) ((h[6] & 0x0f) | 0x50);
            h[8] = (byte) ((h[8] & 0x3f) | 0x80);
            long msb = 0;
            long lsb = 0;
            for (int i = 0; i < 8; i++) {
                msb = (msb << 8) | (h[i] & 0xff);
                lsb = (lsb << 8) | (h[i + 8] & 0xff);
            }
            return new UUID(msb, lsb);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] toBytes(UUID u) {
        byte[] b = new byte[16];
        long m = u.getMostSignificantBits();
        long l = u.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (m >>> (56 - 8 * i));
            b[i + 8] = (byte) (l >>> (56 - 8 * i));
        }
        return b;
    }
}
