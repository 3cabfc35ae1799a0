package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.graph.GraphEvent;
import io.conduit.kernel.JsonCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generator's answer streams as tokens of the message it writes, inside a child run of its model call. */
class GeneratorStageTest {

    @Test
    void theAnswerStreamsAsTokensOfTheMessageInStateInsideItsModelCall() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("weather", "sunny");
        t.model.calls(new ToolCall("c1", "weather", "{\"city\":\"Lyon\"}")).says("It is sunny in Lyon.");
        List<GraphEvent> events = t.say("weather?");

        AssistantMessage answer = AgentState.lastAssistant(t.state());
        assertThat(answer.stage()).isEqualTo("generator");
        List<GraphEvent.Token> tokens = AgentTurns.ofType(events, GraphEvent.Token.class);
        assertThat(tokens).isNotEmpty().allSatisfy(tok -> {
            assertThat(tok.messageId()).isEqualTo(answer.id());
            assertThat(tok.tag().node()).isEqualTo("generator");
        });
        assertThat(AgentTurns.started(events, "chat_model")).extracting(GraphEvent.ChildStarted::name)
                .containsExactly("planner", "generator");
        GraphEvent.ChildStarted started = AgentTurns.started(events, "chat_model").get(1);
        GraphEvent.ChildEnded ended = AgentTurns.ended(events, "chat_model").get(1);
        assertThat(ended.childId()).isEqualTo(started.childId());
        assertThat(ended.output()).isEqualTo(answer);
        assertThat(events.indexOf(started)).isLessThan(events.indexOf(tokens.get(0)));
        assertThat(events.indexOf(ended)).isGreaterThan(events.indexOf(tokens.getLast()));
        // its input holds the tool result the answer is grounded in
        JsonNode messages = JsonCodec.MAPPER.valueToTree(started.input()).get("messages");
        assertThat(messages).anySatisfy(m -> {
            assertThat(m.get("type").asText()).isEqualTo("tool");
            assertThat(m.get("content").asText()).isEqualTo("sunny");
        });
    }
}
