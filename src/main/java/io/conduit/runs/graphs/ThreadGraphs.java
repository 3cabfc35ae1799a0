package io.conduit.runs.graphs;

import io.conduit.runs.ThreadRecord;
import io.conduit.runs.ThreadStore;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * The graph of a thread by its id (see {@link GraphRegistry#forThread}), for those that read or write a thread's
 * state outside a run. An unknown thread reads as the default graph's: its state is empty whatever the graph.
 */
public final class ThreadGraphs {

    private final ThreadStore threads;
    private final GraphRegistry graphs;

    public ThreadGraphs(ThreadStore threads, GraphRegistry graphs) {
        this.threads = threads;
        this.graphs = graphs;
    }

    public Uni<RegisteredGraph> of(String threadId) {
        return threads.get(threadId).map(t -> graphs.forThread(t.orElse(null)));
    }

    public RegisteredGraph of(Optional<ThreadRecord> thread) {
        return graphs.forThread(thread.orElse(null));
    }
}
