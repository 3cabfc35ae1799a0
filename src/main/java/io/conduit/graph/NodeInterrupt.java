package io.conduit.graph;

import java.util.List;

/** Thrown by {@link NodeContext#interrupt} to stop the task; the engine records the interrupts and ends the run. */
public final class NodeInterrupt extends RuntimeException {

    private final List<Interrupt> interrupts;

    public NodeInterrupt(List<Interrupt> interrupts) {
        super("interrupted", null, false, false);
        this.interrupts = List.copyOf(interrupts);
    }

    public List<Interrupt> interrupts() {
        return interrupts;
    }
}
