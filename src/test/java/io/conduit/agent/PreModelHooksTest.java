package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The general pre-model hooks, each on its own and chained, run where a graph runs them: a node that calls a scripted
 * model through {@link HookedModelCall}; what the model received is what is checked. The clock is fixed.
 */
class PreModelHooksTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T22:30:00Z"), ZoneOffset.UTC);
    private static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES, AgentState.USER_ID);

    /** Runs one turn with {@code messages} in state through {@code hook}; the messages the model got. */
    private static List<ChatMessage> received(PreModelHook hook, List<ChatMessage> messages, Map<String, Object> configurable) {
        ScriptedModel model = new ScriptedModel().says("ok");
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("call", (state, ctx) -> HookedModelCall.run(model, hook,
                                new ModelRequest(ModelRole.PLANNER, state.get(AgentState.MESSAGES).asList(), List.of()), state, ctx, "m1", "call", true)
                        .map(reply -> Update.of(AgentState.MESSAGES, reply.message())))
                .edge(StateGraph.START, "call").edge("call", StateGraph.END)
                .compile(GraphOptions.with(new InMemoryCheckpointer()));
        List<GraphEvent> events = graph.stream(RunRequest.on("t-" + UUID.randomUUID()).input(Update.none().add(AgentState.MESSAGES, messages)
                        .set(AgentState.USER_ID, "ada")).configurable(configurable))
                .collect().asList().await().atMost(Duration.ofSeconds(10));
        assertThat(events.get(events.size() - 1)).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(model.requests).hasSize(1);
        // the call's announcement carries what the model got, for clients to see
        assertThat(events.stream().filter(e -> e instanceof GraphEvent.ChildStarted)).hasSize(1);
        return model.requests.get(0).messages();
    }

    private static List<String> contents(List<ChatMessage> messages) {
        return messages.stream().map(ChatMessage::content).toList();
    }

    @Test
    void emptyAndOversizedMessagesAreLeftOutButAToolCallKeepsItsResult() {
        ToolCall call = new ToolCall("c1", "lookup", "{}");
        List<ChatMessage> in = List.of(
                new UserMessage("u1", "x".repeat(101)),
                new UserMessage("u2", "   "),
                new AssistantMessage("a1", "", List.of(), null, "planner"),
                new UserMessage("u3", "question"),
                new AssistantMessage("a2", "y".repeat(200), List.of(call), null, "planner"),
                new ToolMessage("t1", "c1", "lookup", "", false),
                new UserMessage("u4", "and a long result?"),
                new AssistantMessage("a3", "", List.of(new ToolCall("c2", "lookup", "{}")), null, "planner"),
                new ToolMessage("t2", "c2", "lookup", "z".repeat(150), false),
                new AssistantMessage("a4", "", List.of(), null, "planner"),
                new UserMessage("u5", "q".repeat(120)));

        List<ChatMessage> out = received(new DropUnfitMessages(100), in, Map.of());

        assertThat(out).extracting(ChatMessage::id).containsExactly("u3", "a2", "t1", "u4", "a3", "t2", "u5");
        // the newest user message is the question: cut, not dropped
        assertThat(out.get(6).content()).isEqualTo("q".repeat(100) + DropUnfitMessages.CUT);
        assertThat(((AssistantMessage) out.get(1)).content()).isEmpty();
        assertThat(((AssistantMessage) out.get(1)).toolCalls()).containsExactly(call);
        assertThat(out.get(2).content()).isEqualTo(DropUnfitMessages.NO_OUTPUT);
        assertThat(out.get(5).content()).isEqualTo("z".repeat(100) + DropUnfitMessages.CUT);
    }

    @Test
    void theSystemPromptComesFirstWithTheTimeInTheUsersZoneAndTheirMemories() {
        List<String> queries = new ArrayList<>();
        DatedSystemPrompt.Memories memories = (state, ctx, query) -> {
            queries.add(state.get(AgentState.USER_ID) + ": " + query);
            return Uni.createFrom().item(List.of("favourite colour: green", "lives in Kyoto"));
        };
        List<ChatMessage> in = List.of(new UserMessage("u1", "hello"), new AssistantMessage("a1", "hi", List.of(), null, "x"),
                new UserMessage("u2", "what should I wear?"));

        List<ChatMessage> out = received(new DatedSystemPrompt("Be brief.", memories, CLOCK), in, Map.of("timezone", "Asia/Tokyo"));

        assertThat(out).hasSize(4);
        assertThat(out.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(out.get(0).content()).isEqualTo("""
                Be brief.

                Current date and time: Tuesday 24 November 2026, 07:30 (Asia/Tokyo, UTC+09:00)

                What you remember about the user:
                - favourite colour: green
                - lives in Kyoto""");
        assertThat(out.subList(1, 4)).extracting(ChatMessage::id).containsExactly("u1", "a1", "u2");
        assertThat(queries).containsExactly("ada: what should I wear?");
    }

    @Test
    void withoutATimeZoneTheTimeIsUtcAndWithoutMemoriesThereIsNoMemorySection() {
        List<ChatMessage> out = received(new DatedSystemPrompt("Be brief.", DatedSystemPrompt.Memories.none(), CLOCK),
                List.of(new UserMessage("u1", "hello")), Map.of());

        assertThat(out.get(0).content()).isEqualTo("Be brief.\n\nCurrent date and time: Monday 23 November 2026, 22:30 (UTC)");
    }

    @Test
    void aTimeZoneSettingIsCheckedByName() {
        assertThat(DatedSystemPrompt.checkZone(null)).isNull();
        assertThat(DatedSystemPrompt.checkZone("Europe/Paris")).isNull();
        assertThat(DatedSystemPrompt.checkZone("Mars/Olympus")).contains("Mars/Olympus");
        assertThat(DatedSystemPrompt.checkZone(42)).contains("IANA");
    }

    @Test
    void theOldestTurnsGoFirstAndWhatIsLeftStartsAtAUserMessage() {
        List<ChatMessage> in = List.of(
                SystemMessage.of("sys"),
                new UserMessage("u1", "a".repeat(400)),
                new AssistantMessage("a1", "", List.of(new ToolCall("c1", "t", "{}")), null, "p"),
                new ToolMessage("t1", "c1", "t", "b".repeat(400), false),
                new AssistantMessage("a2", "c".repeat(40), List.of(), null, "p"),
                new UserMessage("u2", "d".repeat(40)),
                new AssistantMessage("a3", "e".repeat(40), List.of(), null, "p"),
                new UserMessage("u3", "now?"));

        // the first turn alone is over 200 tokens: it goes whole, tool call and result included
        assertThat(received(new TrimToTokenBudget(100), in, Map.of())).extracting(ChatMessage::id)
                .containsExactly(in.get(0).id(), "u2", "a3", "u3");
        // within budget: nothing goes
        assertThat(received(new TrimToTokenBudget(10_000), in, Map.of())).hasSize(in.size());
        // a budget smaller than the newest turn keeps the newest turn whole
        assertThat(received(new TrimToTokenBudget(1), in, Map.of())).extracting(ChatMessage::id).containsExactly(in.get(0).id(), "u3");
    }

    @Test
    void chainedHooksEachSeeWhatThePreviousMade() {
        PreModelHook hooks = new DropUnfitMessages(1000)
                .then(new DatedSystemPrompt("Be brief.", DatedSystemPrompt.Memories.none(), CLOCK))
                .then(new TrimToTokenBudget(60));
        List<ChatMessage> in = List.of(new UserMessage("u1", "old ".repeat(100)), new AssistantMessage("a1", "", List.of(), null, "p"),
                new UserMessage("u2", "new question"));

        List<ChatMessage> out = received(hooks, in, Map.of());

        assertThat(out.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(contents(out.subList(1, out.size()))).containsExactly("new question");
    }

    @Test
    void aToolCallAStoppedTurnLeftUnansweredGetsAResultInWhatTheModelSees() {
        List<ChatMessage> in = List.of(
                new UserMessage("u1", "look up two things"),
                new AssistantMessage("a1", "", List.of(new ToolCall("c1", "lookup", "{}"), new ToolCall("c2", "lookup", "{}")), null, "p"),
                new ToolMessage("t1", "c1", "lookup", "found", false),
                new UserMessage("u2", "are you there?"));

        List<ChatMessage> out = received(new CloseUnansweredToolCalls(), in, Map.of());

        assertThat(out).extracting(ChatMessage::id).containsExactly("u1", "a1", "t1", "unanswered-c2", "u2");
        ToolMessage closed = (ToolMessage) out.get(3);
        assertThat(closed.toolCallId()).isEqualTo("c2");
        assertThat(closed.error()).isTrue();
        assertThat(closed.content()).isEqualTo(IngressStage.INTERRUPTED);
        // a conversation with every call answered goes as it is
        assertThat(received(new CloseUnansweredToolCalls(), in.subList(0, 1), Map.of())).extracting(ChatMessage::id).containsExactly("u1");
    }
}
