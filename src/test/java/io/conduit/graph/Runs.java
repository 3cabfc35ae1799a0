package io.conduit.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Helpers to run graphs in tests and read what they did. Every wait is bounded, for a stuck run only. */
final class Runs {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Runs() {
    }

    static String newThread() {
        return "t-" + UUID.randomUUID();
    }

    /** Runs to the end and returns every event; checks the stream ends with exactly one terminal event. */
    static List<GraphEvent> run(CompiledGraph graph, RunRequest request) {
        List<GraphEvent> events = graph.stream(request).collect().asList().await().atMost(TIMEOUT);
        assertThat(events).isNotEmpty();
        assertThat(events.stream().filter(GraphEvent::terminal)).as("terminal events of %s", events).hasSize(1);
        assertThat(events.get(events.size() - 1).terminal()).as("last event of %s", events).isTrue();
        return events;
    }

    static GraphEvent last(List<GraphEvent> events) {
        return events.get(events.size() - 1);
    }

    static GraphEvent.RunFinished finished(List<GraphEvent> events) {
        assertThat(last(events)).as("terminal event").isInstanceOf(GraphEvent.RunFinished.class);
        return (GraphEvent.RunFinished) last(events);
    }

    static GraphEvent.Interrupted interrupted(List<GraphEvent> events) {
        assertThat(last(events)).as("terminal event").isInstanceOf(GraphEvent.Interrupted.class);
        return (GraphEvent.Interrupted) last(events);
    }

    static GraphEvent.RunFailed failed(List<GraphEvent> events, String code) {
        assertThat(last(events)).as("terminal event").isInstanceOf(GraphEvent.RunFailed.class);
        GraphEvent.RunFailed f = (GraphEvent.RunFailed) last(events);
        assertThat(f.code()).as("failure code (%s)", f.message()).isEqualTo(code);
        return f;
    }

    static <T extends GraphEvent> List<T> ofType(List<GraphEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** Nodes of the TaskStarted events, in order. */
    static List<String> startedNodes(List<GraphEvent> events) {
        return ofType(events, GraphEvent.TaskStarted.class).stream().map(e -> e.tag().node()).toList();
    }

    static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    /** The thread's newest state; fails if the thread has none. */
    static StateSnapshot state(CompiledGraph graph, String thread) {
        return await(graph.state(thread)).orElseThrow(() -> new AssertionError("thread " + thread + " has no state"));
    }

    static List<StateSnapshot> history(CompiledGraph graph, String thread) {
        return await(graph.history(thread, 1000, null));
    }

    static List<String> historyIds(CompiledGraph graph, String thread) {
        return history(graph, thread).stream().map(StateSnapshot::checkpointId).toList();
    }

    static Uni<Update> done(Update u) {
        return Uni.createFrom().item(u);
    }

    /** Collects a run's events as they come, for tests that act while the run is under way. */
    static final class Recorder {
        private final List<GraphEvent> events = new ArrayList<>();
        private final List<Map.Entry<Predicate<GraphEvent>, CompletableFuture<GraphEvent>>> watches = new ArrayList<>();
        private final CompletableFuture<GraphEvent> end = new CompletableFuture<>();
        private Cancellable subscription;

        static Recorder start(Multi<GraphEvent> stream) {
            Recorder r = new Recorder();
            r.subscription = stream.subscribe().with(r::onEvent, r.end::completeExceptionally, () -> {
                synchronized (r) {
                    GraphEvent last = r.events.isEmpty() ? null : r.events.get(r.events.size() - 1);
                    if (last == null || !last.terminal()) {
                        r.end.completeExceptionally(new AssertionError("stream completed without a terminal event: " + r.events));
                    } else {
                        r.end.complete(last);
                    }
                }
            });
            return r;
        }

        private synchronized void onEvent(GraphEvent e) {
            events.add(e);
            for (var w : watches) {
                if (w.getKey().test(e)) {
                    w.getValue().complete(e);
                }
            }
        }

        /** Completes with the first event (already seen or to come) that matches. */
        synchronized CompletableFuture<GraphEvent> when(Predicate<GraphEvent> p) {
            CompletableFuture<GraphEvent> f = new CompletableFuture<>();
            events.stream().filter(p).findFirst().ifPresentOrElse(f::complete, () -> watches.add(Map.entry(p, f)));
            return f;
        }

        GraphEvent awaitFirst(Predicate<GraphEvent> p) {
            return get(when(p));
        }

        /** Waits for the run's terminal event and returns it. */
        GraphEvent awaitEnd() {
            return get(end);
        }

        synchronized List<GraphEvent> events() {
            return List.copyOf(events);
        }

        void cancel() {
            subscription.cancel();
        }

        static <T> T get(CompletableFuture<T> f) {
            try {
                return f.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new AssertionError("nothing arrived within " + TIMEOUT, e);
            }
        }
    }

    static Predicate<GraphEvent> taskFinished(String node) {
        return e -> e instanceof GraphEvent.TaskFinished && node.equals(e.tag().node());
    }

    static Predicate<GraphEvent> taskStarted(String node) {
        return e -> e instanceof GraphEvent.TaskStarted && node.equals(e.tag().node());
    }
}
