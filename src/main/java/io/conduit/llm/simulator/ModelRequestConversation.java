package io.conduit.llm.simulator;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ToolSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's request as the script reads one ({@link CompletionRequest}): the messages the OpenAI provider would
 * send (a blank system message and removals left out, as {@code LangChain4jRequests} leaves them out), with the same
 * check that every tool call is answered, so that the in-process model answers, and refuses, what the HTTP endpoint
 * would.
 */
final class ModelRequestConversation {

    private ModelRequestConversation() {
    }

    /** @throws InvalidCompletionRequest as the HTTP endpoint would answer 400 */
    static CompletionRequest of(ModelRequest request, String model) {
        List<CompletionRequest.Message> messages = new ArrayList<>(request.messages().size());
        for (ChatMessage message : request.messages()) {
            if (!message.readable()) {
                continue; // as the HTTP path leaves it out (LangChain4jRequests)
            }
            switch (message) {
                case UserMessage u -> messages.add(new CompletionRequest.Message("user", u.content(), List.of(), null));
                case SystemMessage s -> {
                    if (!s.content().isBlank()) {
                        messages.add(new CompletionRequest.Message("system", s.content(), List.of(), null));
                    }
                }
                case AssistantMessage a -> messages.add(new CompletionRequest.Message("assistant", a.content(),
                        a.toolCalls().stream().map(ToolCall::id).toList(), null));
                case ToolMessage t -> messages.add(new CompletionRequest.Message("tool", t.content() == null ? "" : t.content(),
                        List.of(), t.toolCallId()));
                case RemoveMessage ignored -> {
                    // applied by the messages reducer; never part of what a model reads
                }
            }
        }
        return CompletionRequest.of(model, messages, request.tools() == null ? List.of() : request.tools().stream().map(ToolSpec::name).toList());
    }
}
