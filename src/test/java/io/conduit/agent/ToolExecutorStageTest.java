package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.graph.GraphEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each tool call is a child run of its executor task: started with the parsed arguments, ended with the result. */
class ToolExecutorStageTest {

    @Test
    void eachToolCallIsAChildRunWithItsArgumentsAndItsResult() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("weather", "sunny").returns("time", "10:15");
        t.model.calls(new ToolCall("c1", "weather", "{\"city\":\"Lyon\",\"days\":2}"), new ToolCall("c2", "time", "{}"))
                .says("Sunny, and it is 10:15.");
        List<GraphEvent> events = t.say("weather and time?");

        List<GraphEvent.ChildStarted> started = AgentTurns.started(events, "tool");
        assertThat(started).extracting(GraphEvent.ChildStarted::name).containsExactlyInAnyOrder("weather", "time");
        GraphEvent.ChildStarted weather = started.stream().filter(s -> s.name().equals("weather")).findFirst().orElseThrow();
        assertThat(weather.input()).isEqualTo(Map.of("city", "Lyon", "days", 2));
        assertThat(weather.tag().node()).isEqualTo("tool_executor");
        GraphEvent.ChildEnded weatherEnded = AgentTurns.ended(events, "tool").stream()
                .filter(e -> e.childId().equals(weather.childId())).findFirst().orElseThrow();
        assertThat(weatherEnded.name()).isEqualTo("weather");
        assertThat(weatherEnded.output()).isEqualTo("sunny");
        assertThat(weatherEnded.error()).isNull();
        assertThat(weatherEnded.tag()).isEqualTo(weather.tag());
        assertThat(events.indexOf(weatherEnded)).isGreaterThan(events.indexOf(weather));
        assertThat(AgentTurns.ended(events, "tool")).hasSize(2);
    }

    @Test
    void aToolThatFailsEndsItsChildRunWithTheErrorTheModelWillRead() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.tool("weather", c -> new ToolOutcome("weather service unavailable", true, 3));
        t.model.calls(new ToolCall("c1", "weather", "{\"city\":\"Lyon\"}")).says("I could not get the weather.");
        List<GraphEvent> events = t.say("weather?");

        GraphEvent.ChildEnded ended = AgentTurns.ended(events, "tool").get(0);
        assertThat(ended.error()).isEqualTo("weather service unavailable");
        assertThat(ended.output()).isEqualTo("weather service unavailable");
    }

    @Test
    void argumentsThatAreNotJsonAreShownAsTheModelWroteThem() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("weather", "sunny");
        t.model.calls(new ToolCall("c1", "weather", "{city: Lyon")).says("ok");
        List<GraphEvent> events = t.say("weather?");

        assertThat(AgentTurns.started(events, "tool").get(0).input()).isEqualTo("{city: Lyon");
    }
}
