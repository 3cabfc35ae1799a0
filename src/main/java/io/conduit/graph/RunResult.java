package io.conduit.graph;

import java.util.List;

/** How a run ended, for callers that do not stream ({@link CompiledGraph#invoke}). */
public record RunResult(Status status, State state, List<Interrupt> interrupts, String checkpointId, String errorCode, String error) {

    public enum Status { FINISHED, INTERRUPTED, FAILED }
}
