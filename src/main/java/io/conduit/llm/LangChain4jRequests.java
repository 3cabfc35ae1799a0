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
        ChatRequest.Builder builder = ChatRequest.builder()
                .messages(messages(request.messages()))
                .modelName(modelName);
        List<ToolSpec> tools = request.tools() == null ? List.of() : request.tools();
        if (!tools.isEmpty()) {
            builder.toolSpecifications(tools.stream().map(LangChain4jRequests::tool).toList());
        }
        return builder.build();
    }

    static List<dev.langchain4j.data.message.ChatMessage> messages(List<ChatMessage> conversation) {
        List<dev.langchain4j.data.message.ChatMessage> out = new ArrayList<>(conversation.size());
        for (ChatMessage message : conversation) {
            switch (message) {
                case UserMessage u -> out.add(dev.langchain4j.data.message.UserMessage.from(u.content()));
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
