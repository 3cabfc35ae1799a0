package io.conduit.blueprints.request;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.conduit.agent.port.ModelResponse;
import java.util.ArrayList;
import java.util.List;

/** The {@code turn_metrics} bucket: one entry per model call of the turn (failed structured attempts included), and totals. */
public record TurnMetrics(List<Call> calls, @JsonProperty("input_tokens") Integer inputTokens,
                          @JsonProperty("output_tokens") Integer outputTokens, @JsonProperty("latency_ms") Long latencyMs,
                          @JsonProperty("cost_usd") Double costUsd) {

    public static final TurnMetrics EMPTY = new TurnMetrics(List.of(), 0, 0, 0L, 0.0);

    /** One model call: the node that made it, the model, tokens, latency and cost. */
    public record Call(String node, String model, @JsonProperty("input_tokens") int inputTokens, @JsonProperty("output_tokens") int outputTokens,
                       @JsonProperty("latency_ms") long latencyMs, @JsonProperty("cost_usd") double costUsd) {
    }

    public TurnMetrics {
        calls = calls == null ? List.of() : List.copyOf(calls);
        inputTokens = inputTokens == null ? 0 : inputTokens;
        outputTokens = outputTokens == null ? 0 : outputTokens;
        latencyMs = latencyMs == null ? 0L : latencyMs;
        costUsd = costUsd == null ? 0.0 : costUsd;
    }

    public TurnMetrics plus(String node, List<ModelResponse> responses) {
        List<Call> all = new ArrayList<>(calls);
        int in = inputTokens;
        int out = outputTokens;
        long latency = latencyMs;
        double cost = costUsd;
        for (ModelResponse r : responses) {
            all.add(new Call(node, r.model(), r.inputTokens(), r.outputTokens(), r.durationMillis(), r.estimatedCostUsd()));
            in += r.inputTokens();
            out += r.outputTokens();
            latency += r.durationMillis();
            cost += r.estimatedCostUsd();
        }
        return new TurnMetrics(all, in, out, latency, cost);
    }

    /** How many calls {@code node} made. */
    public long callsOf(String node) {
        return calls.stream().filter(c -> c.node().equals(node)).count();
    }
}
