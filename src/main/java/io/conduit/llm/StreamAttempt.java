package io.conduit.llm;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.message.ToolCall;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One streaming call to the provider, turned from LangChain4j's callbacks into a Multi: text, reasoning and
 * tool-call pieces ({@link ToolCallDeltas}) as they arrive, then one {@link ModelEvent.Completed}. A failure is an
 * {@link AttemptFailure} that says whether output had started. A stream silent for longer than the idle timeout
 * fails, so a stalled server cannot hang a run.
 */
final class StreamAttempt implements StreamingChatResponseHandler {

    private final CallContext call;
    private final ToolCallDeltas deltas;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile MultiEmitter<? super ModelEvent> emitter;
    private volatile IdleTimeout idle;
    private volatile boolean outputStarted;
    private volatile long firstOutputNanos;
    private volatile StreamingHandle handle;

    private StreamAttempt(CallContext call) {
        this.call = call;
        this.deltas = new ToolCallDeltas(LlmProvider.OPENAI.id().equals(call.provider()));
    }

    static Multi<ModelEvent> run(StreamingChatModel model, ChatRequest request, CallContext call, Duration idleTimeout, Vertx vertx) {
        return Multi.createFrom().deferred(() -> {
            StreamAttempt attempt = new StreamAttempt(call);
            IdleTimeout idle = new IdleTimeout(vertx, idleTimeout, () -> attempt.stalled(idleTimeout));
            return Multi.createFrom().<ModelEvent>emitter(e -> attempt.start(model, request, e, idle))
                    .onFailure(f -> !(f instanceof AttemptFailure)).transform(attempt::failure);
        });
    }

    private void start(StreamingChatModel model, ChatRequest request, MultiEmitter<? super ModelEvent> emitter, IdleTimeout idle) {
        this.emitter = emitter;
        this.idle = idle;
        emitter.onTermination(() -> {
            idle.stop();
            if (emitter.isCancelled()) {
                done.set(true);
                cancelUpstream();
            }
        });
        idle.start();
        // LangChain4j builds and serializes the request in the calling thread: a run's first call did so on an event
        // loop for ~0.5 s (Jackson meeting its types). A virtual thread may block; a call cancelled meanwhile never starts.
        Thread.ofVirtual().name("llm-call").start(() -> {
            if (done.get()) {
                return;
            }
            try {
                model.chat(request, this);
            } catch (RuntimeException e) {
                onError(e);
            }
        });
    }

    /** The provider went silent: the attempt fails (retried if nothing was output yet) and its stream is dropped. */
    private void stalled(Duration idleTimeout) {
        onError(new BrokenStream("no data from the model for " + idleTimeout.toMillis() + " ms"));
        cancelUpstream();
    }

    private AttemptFailure failure(Throwable cause) {
        return cause instanceof AttemptFailure a ? a : new AttemptFailure(cause, outputStarted);
    }

    @Override
    public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
        text(partial.text(), context.streamingHandle());
    }

    @Override
    public void onPartialResponse(String partial) {
        text(partial, null);
    }

    private void text(String text, StreamingHandle streamingHandle) {
        ProviderStreamError error = InBandError.decode(text);
        if (error != null) {
            remember(streamingHandle);
            onError(error);
            cancelUpstream();
            return;
        }
        output(new ModelEvent.Token(text), streamingHandle);
    }

    @Override
    public void onPartialThinking(PartialThinking partial, PartialThinkingContext context) {
        output(new ModelEvent.Reasoning(partial.text()), context.streamingHandle());
    }

    @Override
    public void onPartialThinking(PartialThinking partial) {
        output(new ModelEvent.Reasoning(partial.text()), null);
    }

    @Override
    public void onPartialToolCall(PartialToolCall partial, PartialToolCallContext context) {
        fragment(partial, context.streamingHandle());
    }

    @Override
    public void onPartialToolCall(PartialToolCall partial) {
        fragment(partial, null);
    }

    private void fragment(PartialToolCall partial, StreamingHandle streamingHandle) {
        toolCall(deltas.fragment(partial.index(), partial.id(), partial.name(), partial.partialArguments()), streamingHandle);
    }

    @Override
    public void onCompleteToolCall(CompleteToolCall complete) {
        ToolExecutionRequest r = complete.toolExecutionRequest();
        toolCall(deltas.whole(complete.index(), r.id(), r.name(), r.arguments()), null);
    }

    /** A piece of a tool call is output (no retry after it) but not text: the time to first token does not count it. */
    private void toolCall(ModelEvent.ToolCallDelta delta, StreamingHandle streamingHandle) {
        remember(streamingHandle);
        if (done.get()) {
            cancelUpstream();
            return;
        }
        outputStarted = true;
        idle.touch();
        if (delta != null) {
            emitter.emit(delta);
        }
    }

    private void output(ModelEvent event, StreamingHandle streamingHandle) {
        remember(streamingHandle);
        if (done.get()) {
            cancelUpstream();
            return;
        }
        if (firstOutputNanos == 0) {
            firstOutputNanos = System.nanoTime();
        }
        outputStarted = true;
        idle.touch();
        emitter.emit(event);
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        if (response.finishReason() == null) {
            emitter.fail(failure(new BrokenStream("the stream ended without a finish reason (cut short?)")));
            return;
        }
        List<ModelEvent.ToolCallDelta> unsent = new ArrayList<>();
        ModelResponse finished = toModelResponse(response, unsent);
        unsent.forEach(emitter::emit);
        emitter.emit(new ModelEvent.Completed(finished));
        emitter.complete();
    }

    @Override
    public void onError(Throwable error) {
        if (done.compareAndSet(false, true)) {
            emitter.fail(failure(error));
        }
    }

    private ModelResponse toModelResponse(ChatResponse response, List<ModelEvent.ToolCallDelta> unsent) {
        long end = System.nanoTime();
        AiMessage ai = response.aiMessage();
        TokenUsage usage = response.tokenUsage();
        int in = usage == null || usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        int out = usage == null || usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        String reported = response.modelName();
        List<ToolCall> toolCalls = ai.hasToolExecutionRequests()
                ? deltas.finish(ai.toolExecutionRequests().stream().map(StreamAttempt::toolCall).toList(), unsent)
                : List.of();
        return new ModelResponse(
                ai.text() == null ? "" : ai.text(),
                toolCalls,
                ai.thinking(),
                call.provider(),
                reported == null || reported.isBlank() ? call.requestedModel() : reported,
                in,
                out,
                finishReason(response.finishReason()),
                firstOutputNanos == 0 ? -1 : millis(firstOutputNanos - call.startNanos()),
                millis(end - call.startNanos()),
                call.prices().costUsd(call.requestedModel(), reported, in, out));
    }

    /**
     * A call as the response holds it; {@link ToolCallDeltas#finish} then gives it the id its deltas announced (or a
     * new one: Mistral may leave the id out, and a tool result must point at some id).
     */
    private static ToolCall toolCall(ToolExecutionRequest request) {
        String raw = ToolCallDeltas.cleanArguments(request.arguments());
        String arguments = raw == null || raw.isBlank() ? "{}" : raw;
        String name = request.name() == null ? null : request.name().replace(OpenAiChunkRewrite.NAME_CONTINUATION, "");
        return new ToolCall(request.id(), name, arguments);
    }

    private static String finishReason(FinishReason reason) {
        return switch (reason) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TOOL_EXECUTION -> "tool_calls";
            case CONTENT_FILTER -> "content_filter";
            case OTHER -> "other";
        };
    }

    private void remember(StreamingHandle streamingHandle) {
        if (streamingHandle != null && handle == null) {
            handle = streamingHandle;
        }
    }

    /**
     * Stops the provider's stream as far as LangChain4j allows. The JDK client (Mistral) hands out a handle that
     * closes the body stream, which ends LangChain4j's parsing (the JDK keeps the TCP connection until the server
     * ends the response). The Quarkus OpenAI client hands out a no-op handle and LangChain4j drops the one that
     * could cancel, so there the response runs on; either way the remaining callbacks are dropped here.
     */
    private void cancelUpstream() {
        StreamingHandle h = handle;
        if (h != null && !h.isCancelled()) {
            try {
                h.cancel();
            } catch (RuntimeException ignored) {
                // best effort: the subscriber is gone either way
            }
        }
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }
}
