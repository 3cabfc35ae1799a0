package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ToolOutcome;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.GraphEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerifierStageTest {

    @Test
    void anEmptyResultReplansOnceThenTheGeneratorAnswers() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("search", "", "found it");
        t.model.calls(new ToolCall("c1", "search", "{\"q\":\"a\"}")).calls(new ToolCall("c2", "search", "{\"q\":\"b\"}")).says("Here it is.");
        List<GraphEvent> events = t.say("find it");
        assertThat(AgentTurns.nodes(events)).containsExactly("ingress", "planner", "tool_executor", "verifier",
                "planner", "tool_executor", "verifier", "generator", "summarizer");
        List<GraphEvent.Custom> retries = AgentTurns.custom(events, "planning_retry");
        assertThat(retries).hasSize(1);
        assertThat(retries.get(0).payload().toString()).contains("search returned nothing").contains("attempt=1");
        assertThat(t.state().get(AgentState.RETRY_COUNT)).isEqualTo(1);
        // the second planner call carried the verifier's note
        assertThat(t.model.requests.get(1).messages().get(0).content()).contains("search returned nothing");
        assertThat(AgentState.lastAssistant(t.state()).content()).isEqualTo("Here it is.");
    }

    @Test
    void aFailedToolIsRetriedWithinTheBudgetThenTheGeneratorAnswersWithWhatItHas() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().retryBudget(1));
        t.tools.tool("search", c -> new ToolOutcome("connection refused", true, 3));
        t.model.calls(new ToolCall("c1", "search", "{}")).calls(new ToolCall("c2", "search", "{}")).says("I could not search.");
        List<GraphEvent> events = t.say("find it");
        assertThat(AgentTurns.custom(events, "planning_retry")).hasSize(1);
        assertThat(t.tools.callsOf("search")).isEqualTo(2);
        assertThat(AgentTurns.nodes(events)).endsWith("verifier", "generator", "summarizer");
        assertThat(AgentState.lastAssistant(t.state()).content()).isEqualTo("I could not search.");
    }

    @Test
    void whenConfiguredTheRunAsksTheUserAndResumesWithTheAnswer() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().retryBudget(0).clarify());
        t.tools.returns("search", "", "the 9:40 train");
        t.model.calls(new ToolCall("c1", "search", "{}")).calls(new ToolCall("c2", "search", "{}")).says("Take the 9:40.");
        GraphEvent paused = AgentTurns.last(t.say("which train?"));
        assertThat(paused).isInstanceOf(GraphEvent.Interrupted.class);
        assertThat(((GraphEvent.Interrupted) paused).interrupts().get(0).value().toString()).contains("Can you tell me more?");
        List<GraphEvent> resumed = t.resume("from Lyon to Paris");
        assertThat(AgentTurns.last(resumed)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(t.state().get(AgentState.MESSAGES).asList()).extracting(ChatMessage::content).contains("from Lyon to Paris");
        assertThat(AgentState.lastAssistant(t.state()).content()).isEqualTo("Take the 9:40.");
    }

    @Test
    void theQuestionAlsoTakesLangChainsReviewShapeAndItsDecisionAnswers() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().retryBudget(0).clarify());
        t.tools.returns("search", "", "the 9:40 train");
        t.model.calls(new ToolCall("c1", "search", "{}")).calls(new ToolCall("c2", "search", "{}")).says("Take the 9:40.");
        GraphEvent.Interrupted paused = (GraphEvent.Interrupted) AgentTurns.last(t.say("which train?"));
        Map<?, ?> payload = (Map<?, ?>) paused.interrupts().get(0).value();
        Map<?, ?> request = (Map<?, ?>) ((List<?>) payload.get("action_requests")).get(0);
        assertThat(request.get("name")).isEqualTo("ask_user");
        assertThat(request.get("description")).isEqualTo(payload.get("question"));
        assertThat(request.get("args")).isEqualTo(Map.of("question", payload.get("question"), "answer", ""));
        assertThat(payload.get("review_configs")).isEqualTo(List.of(Map.of("action_name", "ask_user", "allowed_decisions", List.of("edit"))));
        List<GraphEvent> resumed = t.resume(Map.of("decisions", List.of(Map.of("type", "edit",
                "edited_action", Map.of("name", "ask_user", "args", Map.of("answer", " from Lyon to Paris "))))));
        assertThat(AgentTurns.last(resumed)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(t.state().get(AgentState.MESSAGES).asList()).extracting(ChatMessage::content).contains("from Lyon to Paris");
        assertThat(AgentTurns.nodes(resumed)).containsSubsequence("verifier", "planner", "tool_executor", "verifier", "generator");
    }

    @Test
    void anApprovalWithNoAnswerLetsTheGeneratorAnswerWithWhatItHas() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().retryBudget(0).clarify());
        t.tools.returns("search", "");
        t.model.calls(new ToolCall("c1", "search", "{}")).says("I found no train.");
        assertThat(AgentTurns.last(t.say("which train?"))).isInstanceOf(GraphEvent.Interrupted.class);
        List<GraphEvent> resumed = t.resume(Map.of("decisions", List.of(Map.of("type", "approve"))));
        assertThat(AgentTurns.last(resumed)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(AgentTurns.nodes(resumed)).containsSubsequence("verifier", "generator", "summarizer").doesNotContain("planner");
        assertThat(t.state().get(AgentState.MESSAGES).asList()).filteredOn(m -> m instanceof UserMessage).hasSize(1);
        assertThat(AgentState.lastAssistant(t.state()).content()).isEqualTo("I found no train.");
    }
}
