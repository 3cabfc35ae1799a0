package io.conduit.agent;

import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.Identified;

/** The record of one model call, kept per thread (as a delta channel, so a long thread costs nothing per step). */
public record LlmCall(String id, String runId, String stage, String provider, String model, int inputTokens,
                      int outputTokens, long timeToFirstTokenMillis, long durationMillis, double costUsd) implements Identified {

    public static LlmCall of(String id, String runId, String stage, ModelResponse r) {
        return new LlmCall(id, runId, stage, r.provider(), r.model(), r.inputTokens(), r.outputTokens(),
                r.timeToFirstTokenMillis(), r.durationMillis(), r.estimatedCostUsd());
    }
}
