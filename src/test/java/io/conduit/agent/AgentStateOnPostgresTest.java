package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Durability;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.State;
import io.conduit.persistence.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The assistant's whole state (every message kind, tool calls, metrics) survives Postgres and reads back cold. */
class AgentStateOnPostgresTest {

    @ParameterizedTest
    @EnumSource(Durability.class)
    void aToolTurnReadsBackIdenticallyThroughAFreshGraph(Durability durability) {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults(), TestDatabase.checkpointer(), null);
        t.durability = durability;
        t.tools.returns("search", "", "found");
        t.model.calls(new ToolCall("c1", "search", "{\"q\":\"a\"}")).calls(new ToolCall("c2", "search", "{\"q\":\"b\"}")).says("Done.");
        assertThat(AgentTurns.last(t.say("find"))).isInstanceOf(GraphEvent.RunFinished.class);
        State hot = t.state();

        CompiledGraph cold = AgentGraph.compile(TestAgentConfig.defaults(), t.model, t.tools, t.memory, null, AgentTurns.CLOCK, TestDatabase.checkpointer());
        State read = cold.state(t.thread).await().atMost(Duration.ofSeconds(10)).orElseThrow().values();
        assertThat(read.get(AgentState.MESSAGES)).isEqualTo(hot.get(AgentState.MESSAGES));
        assertThat(read.get(AgentState.MESSAGES).asList()).hasOnlyElementsOfTypes(UserMessage.class, AssistantMessage.class, ToolMessage.class);
        assertThat(read.get(AgentState.LLM_CALLS)).isEqualTo(hot.get(AgentState.LLM_CALLS));
        assertThat(read.get(AgentState.USAGE)).isEqualTo(hot.get(AgentState.USAGE));
        assertThat(read.get(AgentState.SCRATCHPAD)).isEqualTo(hot.get(AgentState.SCRATCHPAD));
        assertThat(read.get(AgentState.RETRY_COUNT)).isEqualTo(1);
        assertThat(cold.history(t.thread, 100, null).await().atMost(Duration.ofSeconds(10))).hasSizeGreaterThan(8);
    }
}
