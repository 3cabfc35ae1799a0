package io.conduit.agent;

import java.util.Collection;

/** Tokens and cost summed over model calls. */
public record Usage(int calls, long inputTokens, long outputTokens, double costUsd) {

    public static final Usage NONE = new Usage(0, 0, 0, 0);

    public static Usage of(LlmCall call) {
        return new Usage(1, call.inputTokens(), call.outputTokens(), call.costUsd());
    }

    public Usage plus(Usage other) {
        return new Usage(calls + other.calls, inputTokens + other.inputTokens, outputTokens + other.outputTokens, costUsd + other.costUsd);
    }

    public static Usage sum(Collection<LlmCall> calls) {
        Usage u = NONE;
        for (LlmCall c : calls) {
            u = u.plus(of(c));
        }
        return u;
    }
}
