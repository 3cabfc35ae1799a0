package io.conduit.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds a graph: nodes, static edges, conditional edges (routers); {@link #compile} checks it. */
public final class StateGraph {

    public static final String START = "__start__";
    public static final String END = "__end__";

    /** A conditional edge and the targets it may pick (empty: any node, which turns off reachability checks). */
    record Branch(Router router, List<String> targets) {
    }

    private final StateSchema schema;
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, List<String>> edges = new LinkedHashMap<>();
    private final Map<String, List<Branch>> branches = new LinkedHashMap<>();

    private StateGraph(StateSchema schema) {
        this.schema = schema;
    }

    public static StateGraph of(StateSchema schema) {
        return new StateGraph(schema);
    }

    public StateGraph node(String name, Node node) {
        if (name == null || name.isBlank() || name.startsWith("__") || name.contains("|") || name.contains(":") || name.contains(",")) {
            throw invalid("node names are non-blank, do not start with __ and contain no '|', ':' or ',': " + name);
        }
        if (nodes.putIfAbsent(name, node) != null) {
            throw invalid("node " + name + " is declared twice");
        }
        return this;
    }

    /**
     * A node that must finish within a time: past it, its work is cancelled and the run fails with
     * {@link GraphException.Code#NODE_TIMEOUT}. {@code timeout} is read per task, so a run's settings can set it.
     */
    public StateGraph node(String name, Node node, java.util.function.Function<NodeContext, java.time.Duration> timeout) {
        return node(name, new TimedNode(node, timeout));
    }

    /** A compiled graph as a node: it runs in its own checkpoint namespace, see {@link SubgraphNode}. */
    public StateGraph node(String name, CompiledGraph subgraph) {
        return node(name, new SubgraphNode(subgraph));
    }

    /** A compiled graph with a state of its own as a node: {@code mapping} gives its input and what it hands back. */
    public StateGraph node(String name, CompiledGraph subgraph, SubgraphMapping mapping) {
        return node(name, new SubgraphNode(subgraph, java.util.Objects.requireNonNull(mapping, "mapping")));
    }

    public StateGraph edge(String from, String to) {
        edges.computeIfAbsent(from, k -> new ArrayList<>()).add(to);
        return this;
    }

    /** A conditional edge; {@code targets} lists where it may go, for checks and drawings. */
    public StateGraph route(String from, Router router, String... targets) {
        branches.computeIfAbsent(from, k -> new ArrayList<>()).add(new Branch(router, List.of(targets)));
        return this;
    }

    public CompiledGraph compile() {
        return compile(GraphOptions.defaults());
    }

    public CompiledGraph compile(GraphOptions options) {
        validate(options);
        return new CompiledGraph(schema, Map.copyOf(nodes), copy(edges), copyBranches(), List.copyOf(nodes.keySet()), options);
    }

    private void validate(GraphOptions options) {
        Set<String> sources = new HashSet<>(edges.keySet());
        sources.addAll(branches.keySet());
        for (String from : sources) {
            if (!from.equals(START) && !nodes.containsKey(from)) {
                throw invalid("an edge leaves from unknown node " + from);
            }
        }
        for (Map.Entry<String, List<String>> e : edges.entrySet()) {
            for (String to : e.getValue()) {
                checkTarget(e.getKey(), to);
            }
        }
        for (Map.Entry<String, List<Branch>> e : branches.entrySet()) {
            for (Branch b : e.getValue()) {
                for (String to : b.targets()) {
                    checkTarget(e.getKey(), to);
                }
            }
        }
        if (!sources.contains(START)) {
            throw invalid("the graph has no edge from START");
        }
        for (String n : nodes.keySet()) {
            if (!sources.contains(n)) {
                throw invalid("node " + n + " has no outgoing edge; add edge(\"" + n + "\", END) if the run ends there");
            }
        }
        if (!reaches(START, END)) {
            throw invalid("END cannot be reached from START");
        }
        for (String n : options.interruptBefore()) {
            checkTarget("interruptBefore", n);
        }
        for (String n : options.interruptAfter()) {
            checkTarget("interruptAfter", n);
        }
    }

    private void checkTarget(String from, String to) {
        if (to.equals(START)) {
            throw invalid(from + " has an edge to START");
        }
        if (!to.equals(END) && !nodes.containsKey(to)) {
            throw invalid(from + " has an edge to unknown node " + to);
        }
    }

    private boolean reaches(String from, String target) {
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(from));
        while (!todo.isEmpty()) {
            String n = todo.pop();
            if (n.equals(target)) {
                return true;
            }
            if (!seen.add(n)) {
                continue;
            }
            todo.addAll(edges.getOrDefault(n, List.of()));
            for (Branch b : branches.getOrDefault(n, List.of())) {
                if (b.targets().isEmpty()) {
                    return true; // an undeclared router may go anywhere, END included
                }
                todo.addAll(b.targets());
            }
        }
        return false;
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> m) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    private Map<String, List<Branch>> copyBranches() {
        Map<String, List<Branch>> out = new LinkedHashMap<>();
        branches.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    private static GraphException invalid(String message) {
        return new GraphException(GraphException.Code.INVALID_GRAPH, message);
    }
}
