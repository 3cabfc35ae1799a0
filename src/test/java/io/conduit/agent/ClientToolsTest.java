package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ToolSpec;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.RunRequest;
import io.conduit.graph.Update;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tools the client runs ({@code configurable.client_tools}): bound by the planner, never executed, ending the turn. */
class ClientToolsTest {

    private static final Map<String, Object> CLIENT = Map.of("client_tools", List.of(Map.of("name", "set_background",
            "description", "Changes the page's background", "parameters", Map.of("type", "object", "properties", Map.of("color", Map.of("type", "string"))))));

    private static List<GraphEvent> say(AgentTurns t, ChatMessage m) {
        return t.run(RunRequest.on(t.thread).configurable(CLIENT).input(Update.of(AgentState.MESSAGES, m).set(AgentState.USER_ID, "ada")));
    }

    @Test
    void aCallToAClientToolEndsTheTurnUnexecutedAndTheNextTurnContinuesFromItsResult() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("search", "x");
        t.model.calls(new ToolCall("c1", "set_background", "{\"color\":\"blue\"}")).says("The background is blue now.");
        List<GraphEvent> first = say(t, UserMessage.of("make it blue"));

        assertThat(AgentTurns.nodes(first)).containsExactly("ingress", "planner");
        assertThat(AgentTurns.last(first)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(t.model.requests.get(0).tools()).extracting(ToolSpec::name).containsExactly("search", "set_background");
        assertThat(t.model.requests.get(0).tools().get(1).parametersSchema()).contains("\"color\"");
        assertThat(t.tools.scopes).isEmpty(); // the executor ran nothing
        assertThat(t.state().get(AgentState.PHASE)).isEqualTo(Phase.CLIENT_TOOLS);
        assertThat(AgentState.lastAssistant(t.state()).toolCalls()).extracting(ToolCall::id).containsExactly("c1");

        List<GraphEvent> second = say(t, new ToolMessage("r1", "c1", "set_background", "done", false));
        assertThat(AgentTurns.last(second)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(AgentTurns.nodes(second)).containsExactly("ingress", "planner", "summarizer");
        assertThat(AgentTurns.tokens(second)).isEqualTo("The background is blue now.");
        // the model saw the client's result right after its call
        List<ChatMessage> seen = t.model.requests.get(1).messages();
        assertThat(seen.get(seen.size() - 1)).isInstanceOfSatisfying(ToolMessage.class, m -> assertThat(m.content()).isEqualTo("done"));
        assertThat(t.state().get(AgentState.MESSAGES).asList()).extracting(ChatMessage::content)
                .containsExactly("make it blue", "", "done", "The background is blue now.");
    }

    @Test
    void withoutClientToolsNothingChangesAndAToolMessageAloneIsStillRefused() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.model.says("Hello.");
        t.say("hi");
        List<GraphEvent> stray = t.run(RunRequest.on(t.thread).input(Update.of(AgentState.MESSAGES, (ChatMessage) new ToolMessage("r1", "nope", "x", "done", false))));
        assertThat(AgentTurns.last(stray)).isInstanceOfSatisfying(GraphEvent.RunFailed.class, f -> assertThat(f.message()).contains("user message"));
    }

    @Test
    void aDeclarationIsCheckedBeforeTheRun() {
        assertThat(AgentSettings.check(Map.of("client_tools", List.of(Map.of("name", "ok"))))).isNull();
        assertThat(AgentSettings.check(Map.of("client_tools", "x"))).startsWith("client_tools must be a list");
        assertThat(AgentSettings.check(Map.of("client_tools", List.of(Map.of("name", "bad name"))))).startsWith("client_tools must be a list");
        assertThat(AgentSettings.check(Map.of("client_tools", List.of(Map.of("name", "a"), Map.of("name", "a"))))).contains("twice");
        assertThat(AgentSettings.check(Map.of("client_tools", List.of(Map.of("name", "a", "parameters", "x"))))).contains("parameters");
    }

    @Test
    void aServiceToolOfTheSameNameWinsAndIsExecuted() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("search", "found");
        t.model.calls(new ToolCall("c1", "search", "{}")).says("Found it.");
        Map<String, Object> shadow = Map.of("client_tools", List.of(Map.of("name", "search")));
        List<GraphEvent> events = t.run(RunRequest.on(t.thread).configurable(shadow)
                .input(Update.of(AgentState.MESSAGES, (ChatMessage) UserMessage.of("look")).set(AgentState.USER_ID, "ada")));
        assertThat(AgentTurns.nodes(events)).contains("tool_executor");
        assertThat(t.model.requests.get(0).tools()).extracting(ToolSpec::name).containsExactly("search");
        assertThat(AgentState.lastAssistant(t.state()).content()).isEqualTo("Found it.");
        assertThat(t.state().get(AgentState.MESSAGES).asList()).filteredOn(m -> m instanceof AssistantMessage).hasSize(2);
    }
}
