package io.conduit.runs.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every observer bean watches the runs: each is told everything, and the task runs inside every watch's context. */
class RunObserversTest {

    private static final Instant T = Instant.parse("2025-03-14T12:00:00Z");
    private static final Run RUN = new Run("r", "t", "agent", RunStatus.RUNNING, Map.of(), MultitaskStrategy.ENQUEUE, null, T, T, T, "w");

    /** An observer that writes down what it is told, under its name. */
    private static RunObserver recording(String name, List<String> log) {
        return new RunObserver() {
            @Override
            public void created(String runId) {
                log.add(name + " created " + runId);
            }

            @Override
            public void stoppedBeforeStart(Run run, String graphId) {
                log.add(name + " stopped before start " + run.runId() + " " + graphId);
            }

            @Override
            public Watch began(Run run, String graphId) {
                return new Watch() {
                    @Override
                    public void event(GraphEvent e) {
                        log.add(name + " event");
                    }

                    @Override
                    public void ended(RunStatus status) {
                        log.add(name + " ended " + status.wire());
                    }

                    @Override
                    public void recorded(RunStatus status, String error) {
                        log.add(name + " recorded " + status.wire() + " " + error);
                    }

                    @Override
                    public void within(Runnable task) {
                        log.add(name + " enters");
                        task.run();
                        log.add(name + " leaves");
                    }
                };
            }
        };
    }

    @Test
    void eachObserverIsToldEverythingInOrder() {
        List<String> log = new ArrayList<>();
        RunObserver all = RunObservers.of(List.of(recording("a", log), recording("b", log)));
        all.created("r");
        RunObserver.Watch w = all.began(RUN, "agent");
        w.within(() -> log.add("task"));
        w.event(new GraphEvent.RunStarted(new GraphEvent.Tag("r", "t", "", null, 0), "cp"));
        w.ended(RunStatus.ERROR);
        w.recorded(RunStatus.ERROR, "E: m");
        all.stoppedBeforeStart(RUN, "agent");
        assertThat(log).containsExactly("a created r", "b created r", "a enters", "b enters", "task", "b leaves", "a leaves",
                "a event", "b event", "a ended error", "b ended error", "a recorded error E: m", "b recorded error E: m",
                "a stopped before start r agent", "b stopped before start r agent");
    }

    @Test
    void noneOrOneObserverIsItself() {
        assertThat(RunObservers.of(List.of())).isSameAs(RunObserver.NONE);
        RunObserver one = recording("a", new ArrayList<>());
        assertThat(RunObservers.of(List.of(one))).isSameAs(one);
        // watches that see nothing are left out
        assertThat(RunObservers.of(List.of(RunObserver.NONE, RunObserver.NONE)).began(RUN, "agent")).isSameAs(RunObserver.Watch.NONE);
    }
}
