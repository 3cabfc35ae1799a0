package io.conduit.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a provider is sent of a conversation. Issue 17: a thread can hold a blank user message (stored before the doors
 * refused them); LangChain4j refuses one (and so failed every model call of the thread), so it is left out, as is an
 * assistant's message with neither text nor tool calls.
 */
class LangChain4jRequestsTest {

    @Test
    void aBlankUserMessageOrASilentAnswerIsNotSent() {
        List<ChatMessage> conversation = List.of(
                new UserMessage("u1", ""), new UserMessage("u2", " \n"), new UserMessage("u3", null),
                new AssistantMessage("a1", "", List.of(), null, null),
                new UserMessage("u4", "hello"),
                new AssistantMessage("a2", "", List.of(new ToolCall("c1", "clock", "{}")), null, null),
                new UserMessage("u5", "", List.of("https://example.com/a.png")));
        var sent = LangChain4jRequests.messages(conversation);
        assertThat(sent).hasSize(3);
        assertThat(((dev.langchain4j.data.message.UserMessage) sent.get(0)).singleText()).isEqualTo("hello");
        assertThat(((dev.langchain4j.data.message.AiMessage) sent.get(1)).toolExecutionRequests()).hasSize(1);
        assertThat(((dev.langchain4j.data.message.UserMessage) sent.get(2)).contents()).hasSize(1); // the image alone
    }
}
