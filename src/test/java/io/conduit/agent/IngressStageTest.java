package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.MessageList;
import io.conduit.graph.RunRequest;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.List;
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

    /**
     * Issue 17: a turn the agent cannot use fails, and its message (which the failed run's input stored) no longer fails
     * every later turn: the next turn's ingress removes it from the thread's messages and goes on with the new one.
     */
    @Test
    void aRefusedMessageDoesNotFailTheTurnsAfterIt() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults().maxChars(40));
        t.model.says("Hello.").says("Hello again.").says("Still here.");
        for (String bad : List.of("", "   ", "this message is far too long for the limit of forty", "bad \u0007 bell")) {
            GraphEvent end = AgentTurns.last(t.say(bad));
            assertThat(end).isInstanceOf(GraphEvent.RunFailed.class);
            assertThat(((GraphEvent.RunFailed) end).code()).isEqualTo("invalid_request");
        }
        assertThat(t.model.requests).isEmpty();
        GraphEvent end = AgentTurns.last(t.say("hi"));
        assertThat(end).isInstanceOf(GraphEvent.RunFinished.class);
        // the model saw only the usable message, and the thread holds only it and the answer
        assertThat(t.model.requests.get(0).messages().stream().filter(m -> m instanceof UserMessage).map(ChatMessage::content).toList())
                .containsExactly("hi");
        assertThat(t.state().get(AgentState.MESSAGES).asList().stream().map(ChatMessage::content).toList()).containsExactly("hi", "Hello.");
        assertThat(AgentTurns.last(t.say("and again"))).isInstanceOf(GraphEvent.RunFinished.class);
    }

    /** A message stored before the door checked it (by an older version), with no content at all, reads as empty and is removed too. */
    @Test
    void aStoredMessageWithoutContentIsRemovedByTheNextTurn() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.model.says("Hello.").says("Hello again.");
        assertThat(AgentTurns.last(t.say("first"))).isInstanceOf(GraphEvent.RunFinished.class);
        t.graph.updateState(t.thread, Update.of(AgentState.MESSAGES, (ChatMessage) new UserMessage("old", null)), null, null)
                .await().indefinitely();
        GraphEvent end = AgentTurns.last(t.say("hi"));
        assertThat(end).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(t.state().get(AgentState.MESSAGES).asList().stream().map(ChatMessage::id)).doesNotContain("old");
    }

    @Test
    void controlCharactersAreRejected() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        GraphEvent end = AgentTurns.last(t.say("bad \u0007 bell"));
        assertThat(((GraphEvent.RunFailed) end).code()).isEqualTo("invalid_request");
    }

    @Test
    void aTurnStoppedBetweenToolCallsAndResultsIsClosedBeforeTheNextMessage() {
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults());
        t.tools.returns("clock", "10:15").returns("lookup", "found");
        t.model.calls(new ToolCall("c1", "clock", "{}"), new ToolCall("c2", "lookup", "{}"));
        t.model.says("Hello again.");
        // the first turn stops after the planner asked for two tools, before either ran (as a cancelled run does)
        GraphEvent stopped = AgentTurns.last(t.run(RunRequest.on(t.thread).interruptBefore("tool_executor")
                .input(Update.of(AgentState.MESSAGES, (ChatMessage) UserMessage.of("plan my day")).set(AgentState.USER_ID, "ada"))));
        assertThat(stopped).isInstanceOf(GraphEvent.Interrupted.class);

        GraphEvent end = AgentTurns.last(t.say("never mind, just say hi"));
        assertThat(end).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(t.tools.callsOf("clock") + t.tools.callsOf("lookup")).isZero();
        // the model never sees a tool call without its result: each dangling call was answered, before the new message
        List<ChatMessage> asked = t.model.requests.get(1).messages();
        int calls = indexOf(asked, m -> m instanceof AssistantMessage a && a.hasToolCalls());
        assertThat(asked.get(calls + 1)).isInstanceOfSatisfying(ToolMessage.class, m -> {
            assertThat(m.toolCallId()).isEqualTo("c1");
            assertThat(m.error()).isTrue();
            assertThat(m.content()).isEqualTo("interrupted: the turn stopped before this tool returned");
        });
        assertThat(asked.get(calls + 2)).isInstanceOfSatisfying(ToolMessage.class, m -> assertThat(m.toolCallId()).isEqualTo("c2"));
        assertThat(asked.get(calls + 3)).isInstanceOfSatisfying(UserMessage.class, m -> assertThat(m.content()).isEqualTo("never mind, just say hi"));
        // and so does the thread's record
        List<ChatMessage> kept = t.state().get(AgentState.MESSAGES).asList();
        assertThat(kept.stream().map(m -> m.getClass().getSimpleName()).toList()).containsExactly(
                "UserMessage", "AssistantMessage", "ToolMessage", "ToolMessage", "UserMessage", "AssistantMessage");
        assertThat(kept.get(kept.size() - 1).content()).isEqualTo("Hello again.");
    }

    @Test
    void onlyCallsWithoutAResultAreClosedAndACompleteConversationIsLeftAlone() {
        UserMessage u1 = new UserMessage("u1", "plan");
        AssistantMessage calls = new AssistantMessage("a1", "", List.of(new ToolCall("c1", "clock", "{}"), new ToolCall("c2", "lookup", "{}")), null, "planner");
        ToolMessage r1 = new ToolMessage("t1", "c1", "clock", "10:15", false);
        UserMessage u2 = new UserMessage("u2", "again");
        Update close = IngressStage.closeUnfinishedTurn(MessageList.<ChatMessage>of(List.of(u1, calls, r1, u2)), List.of(u2));
        List<Object> written = close.writes().stream().map(Update.Write::value).toList();
        assertThat(written).hasSize(3);
        assertThat(written.get(0)).isEqualTo(new RemoveMessage("u2"));
        assertThat(written.get(1)).isInstanceOfSatisfying(ToolMessage.class, m -> assertThat(m.toolCallId()).isEqualTo("c2"));
        assertThat(written.get(2)).isEqualTo(u2);

        ToolMessage r2 = new ToolMessage("t2", "c2", "lookup", "found", false);
        assertThat(IngressStage.closeUnfinishedTurn(MessageList.<ChatMessage>of(List.of(u1, calls, r1, r2, u2)), List.of(u2)).writes()).isEmpty();
    }

    @Test
    void aTurnMayStartWithResultsOfTheLastRepliesCallsOnly() {
        UserMessage u1 = new UserMessage("u1", "paint it");
        AssistantMessage calls = new AssistantMessage("a1", "", List.of(new ToolCall("c1", "paint", "{}"), new ToolCall("c2", "clock", "{}")), null, "planner");
        ToolMessage r1 = new ToolMessage("t1", "c1", "paint", "done", false);
        ToolMessage stray = new ToolMessage("t9", "c9", "paint", "done", false);
        assertThat(IngressStage.answersToolCalls(MessageList.<ChatMessage>of(List.of(u1, calls, r1)))).isTrue();
        assertThat(IngressStage.answersToolCalls(MessageList.<ChatMessage>of(List.of(u1, calls, stray)))).isFalse();
        assertThat(IngressStage.answersToolCalls(MessageList.<ChatMessage>of(List.of(u1, calls)))).isFalse();
        assertThat(IngressStage.answersToolCalls(MessageList.<ChatMessage>of(List.of(u1, r1)))).isFalse();
        // the call the client left unanswered is closed after its answered sibling
        List<Object> written = IngressStage.closeUnfinishedTurn(MessageList.<ChatMessage>of(List.of(u1, calls, r1)), List.of())
                .writes().stream().map(Update.Write::value).toList();
        assertThat(written).singleElement().isInstanceOfSatisfying(ToolMessage.class, m -> assertThat(m.toolCallId()).isEqualTo("c2"));
    }

    @Test
    void aTurnWhoseCheckpointWriteFailedAfterTheToolCallsIsClosedByTheNextMessage() {
        FailingStore store = new FailingStore();
        AgentTurns t = new AgentTurns(TestAgentConfig.defaults(), store, null);
        t.tools.returns("clock", "10:15");
        t.model.calls(new ToolCall("c1", "clock", "{}"));
        t.model.says("Hello again.");
        // the store fails the checkpoint of the tool step (ingress 0, planner 1, tools 2): the run fails there
        store.failStep = 2;
        GraphEvent failed = AgentTurns.last(t.say("what time is it"));
        assertThat(failed).isInstanceOf(GraphEvent.RunFailed.class);
        assertThat(((GraphEvent.RunFailed) failed).code()).isEqualTo("persistence_failed");
        store.failStep = Integer.MIN_VALUE;

        GraphEvent end = AgentTurns.last(t.say("never mind"));
        assertThat(end).isInstanceOf(GraphEvent.RunFinished.class);
        List<ChatMessage> asked = t.model.requests.get(1).messages();
        int calls = indexOf(asked, m -> m instanceof AssistantMessage a && a.hasToolCalls());
        assertThat(asked.get(calls + 1)).isInstanceOfSatisfying(ToolMessage.class, m -> {
            assertThat(m.toolCallId()).isEqualTo("c1");
            assertThat(m.error()).isTrue();
        });
        assertThat(asked.get(calls + 2)).isInstanceOfSatisfying(UserMessage.class, m -> assertThat(m.content()).isEqualTo("never mind"));
    }

    /** An in-memory store whose put of a checkpoint of step {@code failStep} fails, as a lost database would. */
    private static final class FailingStore extends io.conduit.checkpoint.ForwardingCheckpointer {
        volatile int failStep = Integer.MIN_VALUE;

        FailingStore() {
            super(new InMemoryCheckpointer());
        }

        @Override
        public Uni<Void> put(io.conduit.checkpoint.Checkpoint checkpoint, String expectedHead) {
            return checkpoint.step() == failStep ? Uni.createFrom().failure(new IllegalStateException("the database went away"))
                    : store.put(checkpoint, expectedHead);
        }
    }

    private static int indexOf(List<ChatMessage> messages, java.util.function.Predicate<ChatMessage> p) {
        for (int i = 0; i < messages.size(); i++) {
            if (p.test(messages.get(i))) {
                return i;
            }
        }
        throw new AssertionError("no such message in " + messages);
    }
}
