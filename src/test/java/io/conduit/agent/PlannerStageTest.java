package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.GraphEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerStageTest {

    @Test
    void withoutToolCallsThePlannersStreamedAnswerIsFinal() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("search", "x");
        t.model.says("Paris is the capital of France.");
        List<GraphEvent> events = t.say("capital of France?");
        assertThat(AgentTurns.nodes(events)).containsExactly("ingress", "planner", "summarizer");
        assertThat(t.model.roles()).containsExactly(ModelRole.PLANNER);
        assertThat(AgentTurns.tokens(events)).isEqualTo("Paris is the capital of France.");
        assertThat(events.stream().filter(e -> e instanceof GraphEvent.Token).count()).isEqualTo(6);
        AssistantMessage answer = AgentState.lastAssistant(t.state());
        assertThat(answer.content()).isEqualTo("Paris is the capital of France.");
        String tokenMessageId = events.stream().filter(e -> e instanceof GraphEvent.Token).map(e -> ((GraphEvent.Token) e).messageId()).findFirst().orElseThrow();
        assertThat(answer.id()).isEqualTo(tokenMessageId);
        assertThat(t.model.requests.get(0).tools()).extracting(ToolSpec::name).containsExactly("search");
    }

    @Test
    void toolCallsRunInParallelTasksOfOneStep() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("weather", "sunny").returns("time", "10:15");
        t.model.calls(new ToolCall("c1", "weather", "{\"city\":\"Lyon\"}"), new ToolCall("c2", "time", "{}"))
                .says("Sunny, and it is 10:15.");
        List<GraphEvent> events = t.say("weather and time?");
        List<GraphEvent.TaskStarted> tools = events.stream().filter(e -> e instanceof GraphEvent.TaskStarted s && "tool_executor".equals(s.tag().node()))
                .map(e -> (GraphEvent.TaskStarted) e).toList();
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).tag().step()).isEqualTo(tools.get(1).tag().step());
        assertThat(AgentTurns.nodes(events)).containsExactly("ingress", "planner", "tool_executor", "tool_executor", "verifier", "generator", "summarizer");
        assertThat(t.model.roles()).containsExactly(ModelRole.PLANNER, ModelRole.GENERATOR);
        List<ToolMessage> results = t.state().get(AgentState.MESSAGES).asList().stream()
                .filter(m -> m instanceof ToolMessage).map(m -> (ToolMessage) m).toList();
        assertThat(results).extracting(ToolMessage::toolCallId).containsExactly("c1", "c2");
        assertThat(results).extracting(ToolMessage::content).containsExactly("sunny", "10:15");
        assertThat(t.tools.scopes).allSatisfy(s -> assertThat(s.userId()).isEqualTo("ada"));
        // the generator saw the tool results
        assertThat(t.model.requests.get(1).messages()).anySatisfy(m -> assertThat(m.content()).isEqualTo("sunny"));
        assertThat(t.model.requests.get(1).tools()).isEmpty();
    }

    @Test
    void inRouteOnlyModeTheGeneratorAnswersAndThePlannersTextIsNotShown() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().routeOnly());
        t.model.says("thinking out loud").says("The answer.");
        List<GraphEvent> events = t.say("question");
        assertThat(AgentTurns.nodes(events)).containsExactly("ingress", "planner", "generator", "summarizer");
        assertThat(AgentTurns.tokens(events)).isEqualTo("The answer.");
        assertThat(t.state().get(AgentState.MESSAGES).asList()).extracting(ChatMessage::content).containsExactly("question", "The answer.");
    }

    @Test
    void aModelFailureFailsTheRunNamingTheProviderAndKeepsWhatWasCheckpointed() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        GraphEvent end = AgentTurns.last(t.say("hello"));  // the script is empty: the model fails
        assertThat(end).isInstanceOf(GraphEvent.RunFailed.class);
        assertThat(((GraphEvent.RunFailed) end).message()).contains("scripted");
        assertThat(t.state().get(AgentState.MESSAGES).asList()).extracting(ChatMessage::content).containsExactly("hello");
        assertThat(t.state().get(AgentState.PHASE)).isEqualTo(Phase.PLAN);
    }
}
