package io.conduit.llm;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ToolSpec;
import io.conduit.agent.message.UserMessage;
import java.util.ArrayList;
import java.util.List;

/** Our conversation and tools, as a LangChain4j {@link ChatRequest}. */
final class LangChain4jRequests {

    private LangChain4jRequests() {
    }

    static ChatRequest of(ModelRequest request, String modelName) {
        return of(request, modelName, true);
    }

    static ChatRequest of(ModelRequest request, String modelName, boolean images) {
        ChatRequest.Builder builder = ChatRequest.builder()
                .messages(messages(request.messages(), images))
                .modelName(modelName);
        List<ToolSpec> tools = request.tools() == null ? List.of() : request.tools();
        if (!tools.isEmpty()) {
            builder.toolSpecifications(tools.stream().map(LangChain4jRequests::tool).toList());
        }
        return builder.build();
    }

    static List<dev.langchain4j.data.message.ChatMessage> messages(List<ChatMessage> conversation) {
        return messages(conversation, true);
    }

    /**
     * A user message's images go to a model that reads them as image parts; for one that does not
     * ({@code conduit.llm.accepts-images=false}) each becomes a short note in the text, so the model knows one was sent.
     */
    static dev.langchain4j.data.message.UserMessage user(UserMessage u, boolean images) {
        if (u.images().isEmpty()) {
            return dev.langchain4j.data.message.UserMessage.from(u.content());
        }
        if (!images) {
            return dev.langchain4j.data.message.UserMessage.from(u.content()
                    + ("\n[" + u.images().size() + " image(s) attached; this model does not read images]"));
        }
        List<dev.langchain4j.data.message.Content> parts = new ArrayList<>();
        if (!u.content().isEmpty()) {
            parts.add(dev.langchain4j.data.message.TextContent.from(u.content()));
        }
        for (String url : u.images()) {
            int comma = url.indexOf(',');
            if (url.startsWith("data:") && comma > 0 && url.substring(0, comma).endsWith(";base64")) {
                // a data URL as LangChain4j's base64 image: the provider writes it back as the data URL it was
                parts.add(dev.langchain4j.data.message.ImageContent.from(url.substring(comma + 1), url.substring(5, comma - 7)));
            } else {
                parts.add(dev.langchain4j.data.message.ImageContent.from(url));
            }
        }
        return dev.langchain4j.data.message.UserMessage.from(parts);
    }

    static List<dev.langchain4j.data.message.ChatMessage> messages(List<ChatMessage> conversation, boolean images) {
        List<dev.langchain4j.data.message.ChatMessage> out = new ArrayList<>(conversation.size());
        for (ChatMessage message : conversation) {
            if (!message.readable()) {
                // a blank user message (LangChain4j refuses it) or a silent assistant's: the doors refuse such user
                // messages, but a thread may hold one stored before they did, and it must not fail every model call
                continue;
            }
            switch (message) {
                case UserMessage u -> out.add(user(u, images));
                case SystemMessage s -> {
                    // LangChain4j refuses a blank system message, and it would tell the model nothing
                    if (!s.content().isBlank()) {
                        out.add(dev.langchain4j.data.message.SystemMessage.from(s.content()));
                    }
                }
                case AssistantMessage a -> out.add(ai(a));
                case ToolMessage t -> out.add(ToolExecutionResultMessage.builder()
                        .id(t.toolCallId())
                        .toolName(t.name())
                        .text(t.content() == null ? "" : t.content())
                        .isError(t.error())
                        .build());
                case RemoveMessage ignored -> {
                    // a removal is applied by the messages reducer; it is never part of what a model reads
                }
            }
        }
        return out;
    }

    private static AiMessage ai(AssistantMessage a) {
        if (!a.hasToolCalls()) {
            return AiMessage.from(a.content());
        }
        List<ToolExecutionRequest> requests = a.toolCalls().stream().map(LangChain4jRequests::request).toList();
        // reasoning is not sent back: providers either ignore it or reject it in history
        return AiMessage.builder()
                .text(a.content().isBlank() ? null : a.content())
                .toolExecutionRequests(requests)
                .build();
    }

    private static ToolExecutionRequest request(ToolCall call) {
        return ToolExecutionRequest.builder()
                .id(call.id())
                .name(call.name())
                .arguments(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments())
                .build();
    }

    static ToolSpecification tool(ToolSpec spec) {
        return ToolSpecification.builder()
                .name(spec.name())
                .description(spec.description())
                .parameters(JsonSchemaConverter.parameters(spec.name(), spec.parametersSchema()))
                .build();
    }
}
