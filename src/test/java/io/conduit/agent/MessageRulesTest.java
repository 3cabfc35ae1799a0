package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules a turn's messages meet, which a run's submission and the agent's ingress both apply. */
class MessageRulesTest {

    private final MessageRules rules = new MessageRules(20, 2);

    @Test
    void aUserMessageNeedsTextOrAnImageWithinTheLimitAndNoControlCharacters() {
        assertThat(rules.unusable(new UserMessage("u", "hi"))).isNull();
        assertThat(rules.unusable(new UserMessage("u", "", List.of("https://example.com/a.png")))).isNull();
        assertThat(rules.unusable(new UserMessage("u", "tab\tand\nnewline"))).isNull();
        assertThat(rules.unusable(new UserMessage("u", ""))).isEqualTo("message u is empty: a user message needs text or an image");
        assertThat(rules.unusable(new UserMessage("u", " \n\t"))).contains("is empty");
        assertThat(rules.unusable(new UserMessage("u", null))).contains("is empty");
        assertThat(rules.unusable(new UserMessage("u", "x".repeat(21)))).isEqualTo("message u has 21 characters, more than the limit of 20");
        assertThat(rules.unusable(new UserMessage("u", "bell \u0007"))).contains("control characters");
        // a tool result may be empty (it reads "(no output)" to a model), not longer than the limit
        assertThat(rules.unusable(new ToolMessage("t", "c", "clock", "", false))).isNull();
        assertThat(rules.unusable(new ToolMessage("t", "c", "clock", "x".repeat(21), false))).startsWith("tool message t has 21");
        // the conversation's own messages are not input
        assertThat(rules.unusable(new AssistantMessage("a", "", List.of(), null, null))).isNull();
    }

    @Test
    void aTurnEndsWithTheUsersMessageOrToolResultsWithinTheCount() {
        UserMessage hi = new UserMessage("u1", "hi");
        assertThat(rules.turn(List.of(hi))).isNull();
        assertThat(rules.turn(List.of(new SystemMessage("s", "be brief"), hi))).isNull();
        assertThat(rules.turn(List.of(new ToolMessage("t", "c", "clock", "10:15", false)))).isNull();

        assertThat(rules.turn(List.of())).isEqualTo(new MessageRules.Problem(-1, null, "brings no user message: a turn starts with one"));
        assertThat(rules.turn(List.<ChatMessage>of(hi, AssistantMessage.of("hello"))))
                .satisfies(p -> assertThat(p.index()).isEqualTo(1))
                .satisfies(p -> assertThat(p.reason()).contains("ends with the user's message"));
        assertThat(rules.turn(List.of(new SystemMessage("s", "note"))).reason()).contains("not a system message");
        assertThat(rules.turn(List.of(hi, new UserMessage("u2", "and"), new UserMessage("u3", "more"))).reason())
                .isEqualTo("a turn may bring at most 2 user messages, this one has 3");
        assertThat(rules.turn(List.of(hi, new UserMessage("u2", "")))).isEqualTo(new MessageRules.Problem(1, "content",
                "message u2 is empty: a user message needs text or an image"));
    }
}
