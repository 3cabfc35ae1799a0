package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.GraphEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummarizerStageTest {

    @Test
    void underBudgetNothingIsSummarized() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.model.says("a").says("b");
        t.say("one");
        t.say("two");
        assertThat(t.model.roles()).doesNotContain(ModelRole.SUMMARIZER);
        assertThat(t.state().get(AgentState.SUMMARY)).isEmpty();
    }

    @Test
    void overBudgetTheOldestTurnsAreFoldedAndTrimmedFromTheModelsViewButKeptInTheRecord() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().budget(30, 1));
        String longText = "word ".repeat(30);
        t.model.says("first answer " + longText);
        t.say("first question");
        t.model.says("second answer").says("Ada asked two questions.");
        List<GraphEvent> events = t.say("second question");
        assertThat(t.model.roles()).containsExactly(ModelRole.PLANNER, ModelRole.PLANNER, ModelRole.SUMMARIZER);
        assertThat(AgentTurns.custom(events, "summarized")).hasSize(1);
        // the summary tokens are not streamed as part of the answer
        assertThat(AgentTurns.tokens(events)).isEqualTo("second answer");
        // but the summarizer's model call is a child run like the others, ending with what the model wrote
        assertThat(AgentTurns.started(events, "chat_model")).extracting(GraphEvent.ChildStarted::name)
                .containsExactly("planner", "summarizer");
        GraphEvent.ChildEnded summary = AgentTurns.ended(events, "chat_model").get(1);
        assertThat(summary.tag().node()).isEqualTo("summarizer");
        assertThat(((io.conduit.agent.message.AssistantMessage) summary.output()).content()).isEqualTo("Ada asked two questions.");
        assertThat(AgentTurns.ofType(events, GraphEvent.Token.class)).noneMatch(e -> "summarizer".equals(e.tag().node()));
        assertThat(t.state().get(AgentState.SUMMARY)).isEqualTo("Ada asked two questions.");
        assertThat(t.model.requests.get(2).messages().get(1).content()).contains("User: first question").doesNotContain("second question");
        assertThat(t.state().get(AgentState.MESSAGES).size()).isEqualTo(4);
        assertThat(AgentState.modelView(t.state())).extracting(ChatMessage::content).containsExactly("second question", "second answer");
        // the next planner call sees the summary and only the kept turn
        t.model.says("third");
        t.say("third question");
        ModelRequest next = t.model.requests.get(3);
        assertThat(next.messages().get(0).content()).contains("Ada asked two questions.");
        assertThat(next.messages()).extracting(ChatMessage::content).doesNotContain("first question");
    }

    @Test
    void usageIsRecordedPerCallAndSummedPerThreadAndPerRun() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.model.says("one two three");
        List<GraphEvent> first = t.say("hi");
        t.model.says("four");
        t.say("again");
        var state = t.state();
        assertThat(state.get(AgentState.LLM_CALLS).size()).isEqualTo(2);
        LlmCall call = state.get(AgentState.LLM_CALLS).get(0);
        assertThat(call.stage()).isEqualTo("planner");
        assertThat(call.model()).isEqualTo("script-1");
        assertThat(call.outputTokens()).isGreaterThan(0);
        Usage total = state.get(AgentState.USAGE);
        assertThat(total.calls()).isEqualTo(2);
        assertThat(total.outputTokens()).isEqualTo(state.get(AgentState.LLM_CALLS).get(0).outputTokens() + state.get(AgentState.LLM_CALLS).get(1).outputTokens());
        assertThat(AgentState.runUsage(state, first.get(0).tag().runId()).calls()).isEqualTo(1);
    }
}
