package io.conduit.runs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.AgentState;
import io.conduit.agent.Scratchpad;
import io.conduit.agent.Usage;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Update;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The values and updates written straight as text are the trees' text, byte for byte. */
class WireStateTest {

    @Test
    void valuesWrittenStraightAreTheTreesText() {
        var state = AgentState.SCHEMA.initialState();

        assertThat(WireState.valuesJson(state, ProtocolJson::message))
                .isEqualTo(WireState.values(state, ProtocolJson::message).toString())
                .contains("\"messages\":[]", "\"retry_count\":0");
    }

    @Test
    void anUpdateWrittenStraightIsTheTreesTextWithRepeatedWritesAsTheTreeHasThem() {
        Update update = Update.of(AgentState.MESSAGES, UserMessage.of("hello \"you\""))
                .set(AgentState.SUMMARY, "first")
                .set(AgentState.MESSAGES, AssistantMessage.of("hi ✓"))
                .set(AgentState.SCRATCHPAD, new Scratchpad(Map.of("k", "v")))
                .set(AgentState.SUMMARY, "second")
                .set(AgentState.USAGE, new Usage(1, 2, 3, 0.5));

        String straight = WireState.updateJson(update, ProtocolJson::message);

        assertThat(straight).isEqualTo(WireState.update(update, ProtocolJson::message).toString());
        assertThat(straight).contains("\"summary\":\"second\"").doesNotContain("first");
        assertThat(WireState.updateJson(Update.none(), ProtocolJson::message)).isEqualTo("{}");
    }
}
