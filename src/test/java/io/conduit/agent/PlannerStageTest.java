package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;

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

    @Test
    void thePlannersToolCallsStreamAsChunksOfTheMessageItWritesToState() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("weather", "sunny").returns("time", "10:15");
        t.model.calls(new ToolCall("c1", "weather", "{\"city\":\"Lyon\"}"), new ToolCall("c2", "time", "{}"))
                .says("Sunny, and it is 10:15.");
        List<GraphEvent> events = t.say("weather and time?");

        AssistantMessage planned = t.state().get(AgentState.MESSAGES).asList().stream()
                .filter(m -> m instanceof AssistantMessage a && a.hasToolCalls()).map(m -> (AssistantMessage) m).findFirst().orElseThrow();
        List<GraphEvent.ToolCallChunk> chunks = AgentTurns.ofType(events, GraphEvent.ToolCallChunk.class);
        assertThat(chunks).isNotEmpty().allSatisfy(c -> {
            assertThat(c.messageId()).isEqualTo(planned.id());
            assertThat(c.tag().node()).isEqualTo("planner");
        });
        // per call: id and name on the first chunk only, then the arguments in pieces that add up
        assertThat(chunks).filteredOn(c -> c.callId() != null)
                .extracting(GraphEvent.ToolCallChunk::index, GraphEvent.ToolCallChunk::callId, GraphEvent.ToolCallChunk::name)
                .containsExactly(tuple(0, "c1", "weather"), tuple(1, "c2", "time"));
        assertThat(chunks).filteredOn(c -> c.callId() == null).allSatisfy(c -> assertThat(c.name()).isNull());
        assertThat(chunks.stream().filter(c -> c.index() == 0)).hasSizeGreaterThan(2);
        assertThat(AgentTurns.joinedArguments(events, 0)).isEqualTo("{\"city\":\"Lyon\"}");
        assertThat(AgentTurns.joinedArguments(events, 1)).isEqualTo("{}");
        // the chunks come while the planner's model call runs, which ends with that very message
        GraphEvent.ChildEnded call = AgentTurns.ended(events, "chat_model").get(0);
        assertThat(call.output()).isEqualTo(planned);
        assertThat(events.indexOf(chunks.get(chunks.size() - 1))).isLessThan(events.indexOf(call));
        assertThat(events.indexOf(chunks.get(0))).isGreaterThan(events.indexOf(AgentTurns.started(events, "chat_model").get(0)));
    }

    @Test
    void inRouteOnlyModeThePlannersToolCallsStillStreamButItsTextDoesNot() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().routeOnly());
        t.tools.returns("weather", "sunny");
        t.model.answers("Let me check the weather.", new ToolCall("c1", "weather", "{\"city\":\"Lyon\"}")).says("Sunny.");
        List<GraphEvent> events = t.say("weather?");

        assertThat(AgentTurns.tokens(events)).isEqualTo("Sunny.");
        assertThat(AgentTurns.ofType(events, GraphEvent.ToolCallChunk.class)).isNotEmpty()
                .allSatisfy(c -> assertThat(c.tag().node()).isEqualTo("planner"));
        assertThat(AgentTurns.joinedArguments(events, 0)).isEqualTo("{\"city\":\"Lyon\"}");
    }

    @Test
    void aCallTheModelGaveNoIdGetsOneThatItsChunksTheMessageAndTheToolResultShare() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("weather", "sunny");
        t.model.calls(new ToolCall(null, "weather", "{\"city\":\"Lyon\"}")).says("Sunny.");
        List<GraphEvent> events = t.say("weather?");

        String chunkId = AgentTurns.ofType(events, GraphEvent.ToolCallChunk.class).get(0).callId();
        assertThat(chunkId).startsWith("call_");
        List<ChatMessage> messages = t.state().get(AgentState.MESSAGES).asList();
        assertThat(messages).filteredOn(m -> m instanceof AssistantMessage a && a.hasToolCalls())
                .singleElement().satisfies(m -> assertThat(((AssistantMessage) m).toolCalls().get(0).id()).isEqualTo(chunkId));
        assertThat(messages).filteredOn(m -> m instanceof ToolMessage)
                .singleElement().satisfies(m -> assertThat(((ToolMessage) m).toolCallId()).isEqualTo(chunkId));
    }

    @Test
    void theModelCallIsAChildRunWithTheRequestsMessagesAndTheMessageItMade() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.model.says("Paris.");
        List<GraphEvent> events = t.say("capital of France?");

        GraphEvent.ChildStarted started = AgentTurns.started(events, "chat_model").get(0);
        GraphEvent.ChildEnded ended = AgentTurns.ended(events, "chat_model").get(0);
        assertThat(started.name()).isEqualTo("planner");
        assertThat(started.tag().node()).isEqualTo("planner");
        assertThat(ended.childId()).isEqualTo(started.childId());
        assertThat(ended.name()).isEqualTo("planner");
        assertThat(ended.error()).isNull();
        assertThat(ended.output()).isEqualTo(AgentState.lastAssistant(t.state()));
        // the input is the request as sent, and serializes as the state's messages do
        JsonNode input = JsonCodec.MAPPER.valueToTree(started.input());
        assertThat(input.get("messages")).hasSize(t.model.requests.get(0).messages().size());
        assertThat(input.get("messages").get(0).get("type").asText()).isEqualTo("system");
        assertThat(input.get("messages").get(1).get("type").asText()).isEqualTo("human");
        assertThat(input.get("messages").get(1).get("content").asText()).isEqualTo("capital of France?");
        assertThat(input.get("tools")).isEmpty();
        JsonNode output = JsonCodec.MAPPER.valueToTree(ended.output());
        assertThat(output.get("type").asText()).isEqualTo("ai");
        assertThat(output.get("content").asText()).isEqualTo("Paris.");
        // started before the first token, ended after the last, all inside the planner's task
        int first = events.indexOf(AgentTurns.ofType(events, GraphEvent.Token.class).get(0));
        assertThat(events.indexOf(started)).isLessThan(first);
        assertThat(events.indexOf(ended)).isGreaterThan(events.lastIndexOf(AgentTurns.ofType(events, GraphEvent.Token.class).getLast()));
    }

    @Test
    void aFailedModelCallEndsItsChildRunWithTheError() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        List<GraphEvent> events = t.say("hello");  // the script is empty: the model fails

        GraphEvent.ChildEnded ended = AgentTurns.ended(events, "chat_model").get(0);
        assertThat(ended.childId()).isEqualTo(AgentTurns.started(events, "chat_model").get(0).childId());
        assertThat(ended.output()).isNull();
        assertThat(ended.error()).contains("scripted");
        assertThat(events.indexOf(ended)).isLessThan(events.size() - 1);
        assertThat(AgentTurns.last(events)).isInstanceOf(GraphEvent.RunFailed.class);
    }
}
