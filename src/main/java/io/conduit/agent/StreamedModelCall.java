package io.conduit.agent;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.TokenUsage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ToolSpec;
import io.conduit.graph.NodeContext;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs one model call inside a node, as a child run of kind {@value #KIND} named after the stage (LangChain's chat
 * model callbacks: started with the request's messages, ended with the message the model wrote or the error). What
 * it streams as it arrives depends on {@link Shown}: text as tokens of the message {@code messageId}, reasoning as
 * reasoning of that message ({@link NodeContext#reasoning}), tool calls as tool-call chunks of the same message. The
 * node gets the response and that message, whose id and tool-call ids are the ones the stream carried. A call made
 * with {@link Shown#ALL_SPLIT_THINKING} has its text split by {@link ThinkingTags}: the thinking streams and is kept
 * as the message's reasoning, the answer as its text. Blueprints' nodes use it too.
 */
public final class StreamedModelCall {

    public static final String KIND = "chat_model";

    /** Written as a list of messages: elements of a plain list would lose their {@code type}. */
    private static final ObjectWriter MESSAGES = JsonCodec.MAPPER.writerFor(new TypeReference<List<ChatMessage>>() {
    });

    /** What of a call the run's subscribers see while it streams; the call itself is announced either way. */
    public enum Shown {
        /** Nothing: the call's text is bookkeeping, not a message (the summary). */
        NOTHING,
        /** Only the tool calls: the text is not shown, but the calls become a message in state (a route-only planner). */
        TOOL_CALLS,
        /** Text, reasoning and tool calls. */
        ALL,
        /**
         * As {@link #ALL}, with the text written as {@code <thinking>…</thinking><answer>…</answer>}: the thinking
         * streams as reasoning and becomes the message's reasoning, the answer its text.
         */
        ALL_SPLIT_THINKING
    }

    /** The finished call, and the message it makes. */
    public record Reply(ModelResponse response, AssistantMessage message) {
    }

    private StreamedModelCall() {
    }

    public static Uni<Reply> run(LanguageModel model, ModelRequest request, NodeContext ctx, String messageId, String stage, Shown shown) {
        boolean text = shown == Shown.ALL || shown == Shown.ALL_SPLIT_THINKING;
        ThinkingTags split = shown == Shown.ALL_SPLIT_THINKING ? new ThinkingTags() : null;
        ThinkingTags.Sink shownSplit = new ThinkingTags.Sink() {
            @Override
            public void reasoning(String piece) {
                ctx.reasoning(messageId, piece);
            }

            @Override
            public void answer(String piece) {
                ctx.token(messageId, piece);
            }
        };
        Consumer<ModelEvent.ToolCallDelta> showCall = shown == Shown.NOTHING ? c -> { }
                : c -> ctx.toolCallChunk(messageId, c.index(), c.id(), c.name(), c.argumentsDelta());
        return Uni.createFrom().deferred(() -> {
            String childId = TimeOrderedIds.next();
            ctx.childStarted(childId, KIND, stage, input(request));
            ToolCallChunks chunks = new ToolCallChunks();
            return model.stream(request)
                    .onItem().invoke(e -> {
                        if (e instanceof ModelEvent.Token t && split != null) {
                            split.feed(t.text(), shownSplit);
                        } else if (e instanceof ModelEvent.Token t && text) {
                            ctx.token(messageId, t.text());
                        } else if (e instanceof ModelEvent.Reasoning r && text) {
                            ctx.reasoning(messageId, r.text());
                        } else if (e instanceof ModelEvent.ToolCallDelta d) {
                            showCall.accept(chunks.chunk(d));
                        }
                    })
                    .filter(e -> e instanceof ModelEvent.Completed)
                    .map(e -> ((ModelEvent.Completed) e).response())
                    .collect().last()
                    .onItem().ifNull().failWith(() -> new ModelException("model", "the stream ended without a response", null))
                    .map(r -> {
                        List<ToolCall> toolCalls = chunks.finish(r.toolCalls(), showCall);
                        String content = r.text();
                        String reasoning = r.reasoning();
                        if (split != null) {
                            split.finish(shownSplit);
                            content = split.answer();
                            reasoning = joined(reasoning, split.thinking());
                        }
                        AssistantMessage message = new AssistantMessage(messageId, content, toolCalls, reasoning, stage,
                                new TokenUsage(r.inputTokens(), r.outputTokens()));
                        ctx.childEnded(childId, KIND, stage, message, null);
                        return new Reply(r, message);
                    })
                    .onFailure().invoke(f -> ctx.childEnded(childId, KIND, stage, null, String.valueOf(f.getMessage())));
        });
    }

    private static String joined(String a, String b) {
        if (a == null || a.isEmpty()) {
            return b.isEmpty() ? a : b;
        }
        return b.isEmpty() ? a : a + "\n\n" + b;
    }

    /**
     * The request as LangChain's chat model start shows it: the messages, as JSON written as the state writes them,
     * and the names of the tools bound.
     */
    private static Map<String, Object> input(ModelRequest request) {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("messages", new WrittenMessages(request.messages()));
        in.put("tools", request.tools().stream().map(ToolSpec::name).toList());
        return Collections.unmodifiableMap(in);
    }

    /**
     * The messages as the state writes them, written straight into the JSON of whichever reader asks (a stream mode
     * that shows the model's start); never written when none does, and never parsed back.
     */
    private record WrittenMessages(List<ChatMessage> messages) implements JsonSerializable {

        @Override
        public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
            MESSAGES.writeValue(gen, messages);
        }

        @Override
        public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer) throws IOException {
            serialize(gen, serializers);
        }
    }
}
