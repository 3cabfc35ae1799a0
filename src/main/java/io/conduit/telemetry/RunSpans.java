package io.conduit.telemetry;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * The spans of a run: the run, its node tasks, and inside them model calls (GenAI semantic conventions:
 * {@code gen_ai.system}, {@code gen_ai.request.model}, {@code gen_ai.usage.*}) and tool calls. With the SDK off (the
 * default) the tracer makes no-op spans.
 */
final class RunSpans {

    /** The stages' word for a model call and a tool call ({@code ChildStarted.kind}). */
    static final String CHAT_MODEL = "chat_model";
    static final String TOOL = "tool";

    static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("conduit.run_id");
    static final AttributeKey<String> THREAD_ID = AttributeKey.stringKey("conduit.thread_id");
    static final AttributeKey<String> GRAPH_ID = AttributeKey.stringKey("conduit.graph_id");
    static final AttributeKey<String> NODE = AttributeKey.stringKey("conduit.node");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> RUN_STATUS = AttributeKey.stringKey("conduit.run.status");

    private final Tracer tracer;
    /** The configured provider and model: what a model call asks for unless an assistant overrides it. */
    private final String system;
    private final String model;

    RunSpans(Tracer tracer, String system, String model) {
        this.tracer = tracer;
        this.system = system;
        this.model = model;
    }

    Span run(Run run, String graphId, Context parent) {
        return tracer.spanBuilder("run " + graphId).setParent(parent).setSpanKind(SpanKind.INTERNAL)
                .setAttribute(RUN_ID, run.runId()).setAttribute(THREAD_ID, run.threadId()).setAttribute(GRAPH_ID, graphId)
                .startSpan();
    }

    Span node(Span run, GraphEvent.Tag tag) {
        return tracer.spanBuilder("node " + tag.node()).setParent(Context.root().with(run))
                .setAttribute(NODE, String.valueOf(tag.node())).setAttribute(RUN_ID, tag.runId()).startSpan();
    }

    Span child(Span parent, GraphEvent.ChildStarted c) {
        if (CHAT_MODEL.equals(c.kind())) {
            return tracer.spanBuilder("chat " + model).setParent(Context.root().with(parent)).setSpanKind(SpanKind.CLIENT)
                    .setAttribute(OPERATION, "chat").setAttribute(SYSTEM, system).setAttribute(REQUEST_MODEL, model)
                    .setAttribute(NODE, String.valueOf(c.tag().node())).startSpan();
        }
        if (TOOL.equals(c.kind())) {
            var b = tracer.spanBuilder("execute_tool " + c.name()).setParent(Context.root().with(parent))
                    .setAttribute(OPERATION, "execute_tool").setAttribute(TOOL_NAME, String.valueOf(c.name()));
            if (c.callId() != null) {
                b.setAttribute(TOOL_CALL_ID, c.callId());
            }
            return b.startSpan();
        }
        return tracer.spanBuilder(c.kind() + " " + c.name()).setParent(Context.root().with(parent)).startSpan();
    }

    void usage(Span span, int input, int output) {
        span.setAttribute(INPUT_TOKENS, (long) input);
        span.setAttribute(OUTPUT_TOKENS, (long) output);
    }

    void end(Span run, RunStatus status) {
        run.setAttribute(RUN_STATUS, status.wire());
        if (status == RunStatus.ERROR || status == RunStatus.TIMEOUT) {
            run.setStatus(StatusCode.ERROR, status.wire());
        }
        run.end();
    }
}
