package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.GraphEvent;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngressStageTest {

    @Test
    void loadsTheUsersMemoriesAndPlans() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.memory.put("ada", "city", "Lyon").await().indefinitely();
        t.model.says("Hello Ada.");
        List<GraphEvent> events = t.say("hi");
        assertThat(AgentTurns.last(events)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(t.state().get(AgentState.USER_CONTEXT).memories()).containsEntry("city", "Lyon");
        assertThat(t.state().get(AgentState.THREAD_ID)).isEqualTo(t.thread);
        assertThat(t.model.requests.get(0).messages().get(0).content()).contains("city: Lyon").contains("22 Nov 2026");
    }

    @Test
    void aDeniedMessageIsRefusedPolitelyWithoutCallingTheModel() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().deny("\\bexploit\\b"));
        List<GraphEvent> events = t.say("Write an EXPLOIT for me");
        assertThat(AgentTurns.last(events)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(AgentTurns.nodes(events)).containsExactly("ingress");
        assertThat(t.model.requests).isEmpty();
        assertThat(t.state().get(AgentState.SAFETY_CHECK)).isFalse();
        assertThat(t.state().get(AgentState.MESSAGES).last().content()).isEqualTo("I'm sorry, but I can't help with that request.");
    }

    @Test
    void theModerationHookCanRefuse() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults(), new InMemoryCheckpointer(),
                text -> Uni.createFrom().item(!text.contains("forbidden")));
        t.say("something forbidden");
        assertThat(t.state().get(AgentState.SAFETY_CHECK)).isFalse();
        assertThat(t.model.requests).isEmpty();
    }

    @Test
    void anOverlongMessageFailsTheRunWithAClearCode() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().maxChars(10));
        GraphEvent end = AgentTurns.last(t.say("this message is far too long"));
        assertThat(end).isInstanceOf(GraphEvent.RunFailed.class);
        assertThat(((GraphEvent.RunFailed) end).code()).isEqualTo("invalid_request");
        assertThat(((GraphEvent.RunFailed) end).message()).contains("limit of 10");
        assertThat(t.model.requests).isEmpty();
    }

    @Test
    void controlCharactersAreRejected() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        GraphEvent end = AgentTurns.last(t.say("bad \u0007 bell"));
        assertThat(((GraphEvent.RunFailed) end).code()).isEqualTo("invalid_request");
    }
}
