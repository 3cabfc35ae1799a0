package io.conduit.blueprints.request;

import io.conduit.graph.Channels;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateSchema;

/** The request graph's state: four buckets, each replaced whole by the node that changes it. */
public final class RequestState {

    public static final LastValueChannel<RequestInput> INPUT = Channels.lastValue("input", RequestInput.class, RequestInput.EMPTY);
    public static final LastValueChannel<Processing> PROCESSING = Channels.lastValue("processing", Processing.class, Processing.EMPTY);
    public static final LastValueChannel<RequestOutput> OUTPUT = Channels.lastValue("output", RequestOutput.class, RequestOutput.EMPTY);
    public static final LastValueChannel<TurnMetrics> TURN_METRICS = Channels.lastValue("turn_metrics", TurnMetrics.class, TurnMetrics.EMPTY);

    public static final StateSchema SCHEMA = StateSchema.of(INPUT, PROCESSING, OUTPUT, TURN_METRICS);

    /** The retry budgets' names in {@link Processing#retries()}. */
    public static final String STRUCTURED_OUTPUT = "structured_output";
    public static final String PLANNING = "planning";
    public static final String VALIDATION = "validation";

    private RequestState() {
    }
}
