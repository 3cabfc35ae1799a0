package io.conduit.runs.worker;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import java.util.ArrayList;
import java.util.List;

/** Several observers as one (telemetry, token usage...): each is told everything, in the order given. */
final class RunObservers implements RunObserver {

    private final RunObserver[] observers;

    private RunObservers(List<RunObserver> observers) {
        this.observers = observers.toArray(RunObserver[]::new);
    }

    /** One observer for all of {@code observers}: {@link RunObserver#NONE} for none, the observer itself for one. */
    static RunObserver of(List<RunObserver> observers) {
        return switch (observers.size()) {
            case 0 -> RunObserver.NONE;
            case 1 -> observers.get(0);
            default -> new RunObservers(observers);
        };
    }

    @Override
    public void created(String runId) {
        for (RunObserver o : observers) {
            o.created(runId);
        }
    }

    @Override
    public void stoppedBeforeStart(Run run, String graphId) {
        for (RunObserver o : observers) {
            o.stoppedBeforeStart(run, graphId);
        }
    }

    @Override
    public Watch began(Run run, String graphId) {
        List<Watch> watches = new ArrayList<>(observers.length);
        for (RunObserver o : observers) {
            Watch w = o.began(run, graphId);
            if (w != Watch.NONE) {
                watches.add(w);
            }
        }
        return watches.size() == 1 ? watches.get(0) : watches.isEmpty() ? Watch.NONE : new Watches(watches.toArray(Watch[]::new));
    }

    /** The watches of one run. */
    private record Watches(Watch[] all) implements Watch {

        @Override
        public void event(GraphEvent e) {
            for (Watch w : all) {
                w.event(e);
            }
        }

        @Override
        public void ended(RunStatus status) {
            for (Watch w : all) {
                w.ended(status);
            }
        }

        @Override
        public void recorded(RunStatus status, String error) {
            for (Watch w : all) {
                w.recorded(status, error);
            }
        }

        @Override
        public void within(Runnable task) {
            within(0, task);
        }

        /** Each watch's context around the next's, the task inside them all. */
        private void within(int i, Runnable task) {
            if (i == all.length) {
                task.run();
            } else {
                all[i].within(() -> within(i + 1, task));
            }
        }
    }
}
