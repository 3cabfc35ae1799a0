package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.Node;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateGraph;
import io.conduit.graph.Update;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Structured answers inside a node: decoded, checked, asked again with what was wrong, within the budget; and a
 * reasoning prompt's answer split by {@link StreamedModelCall.Shown#ALL_SPLIT_THINKING}.
 */
class CheckedJsonAnswerTest {

    record Plan(List<String> steps) {
    }

    private final ScriptedModel model = new ScriptedModel();

    private static List<String> problems(Plan p) {
        return p.steps() == null || p.steps().size() != 2 ? List.of("steps must hold 2 steps") : List.of();
    }

    /** Runs one node on a fresh thread; the events of the run. */
    private static List<GraphEvent> run(Node node) {
        CompiledGraph g = StateGraph.of(AgentState.SCHEMA).node("n", node)
                .edge(StateGraph.START, "n").edge("n", StateGraph.END)
                .compile(GraphOptions.with(new InMemoryCheckpointer()));
        return g.stream(RunRequest.on("t-" + UUID.randomUUID()).input(Update.of(AgentState.MESSAGES, UserMessage.of("go"))))
                .collect().asList().await().atMost(Duration.ofSeconds(10));
    }

    private Node asking(int attempts, AtomicReference<Object> out) {
        ModelRequest ask = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of("Plan it as JSON")), List.of());
        return (s, ctx) -> CheckedJsonAnswer.ask(model, ask, Plan.class, CheckedJsonAnswerTest::problems, attempts, ctx, "plan")
                .invoke(out::set)
                .onFailure().invoke(out::set)
                .onFailure().recoverWithItem(f -> null)
                .replaceWith(Update.none());
    }

    @Test
    void aValidAnswerIsDecodedAtOnceEvenInsideAFenceWithWordsAround() {
        model.says("Here it is:\n```json\n{\"steps\": [\"a\", \"b\"], \"extra\": 1}\n```\nDone.");
        AtomicReference<Object> out = new AtomicReference<>();

        List<GraphEvent> events = run(asking(3, out));

        CheckedJsonAnswer.Result<?> r = (CheckedJsonAnswer.Result<?>) out.get();
        assertThat(((Plan) r.value()).steps()).containsExactly("a", "b");
        assertThat(r.calls()).hasSize(1);
        assertThat(events).noneMatch(e -> e instanceof GraphEvent.Token); // a value, not a message
        assertThat(events).filteredOn(e -> e instanceof GraphEvent.ChildStarted c && c.kind().equals("chat_model")).hasSize(1);
    }

    @Test
    void anAnswerThatFailsTheChecksIsShownToTheModelWithWhatWasWrong() {
        model.says("{\"steps\": [\"only one\"]}").says("not json at all").says("{\"steps\": [\"a\", \"b\"]}");
        AtomicReference<Object> out = new AtomicReference<>();

        run(asking(3, out));

        CheckedJsonAnswer.Result<?> r = (CheckedJsonAnswer.Result<?>) out.get();
        assertThat(((Plan) r.value()).steps()).containsExactly("a", "b");
        assertThat(r.calls()).hasSize(3);
        List<ChatMessage> second = model.requests.get(1).messages();
        assertThat(second.get(1)).isInstanceOf(AssistantMessage.class);
        assertThat(second.get(1).content()).isEqualTo("{\"steps\": [\"only one\"]}");
        assertThat(second.get(2).content()).startsWith("That answer cannot be used: steps must hold 2 steps.");
        assertThat(model.requests.get(2).messages().get(4).content()).contains("not valid JSON");
    }

    @Test
    void pastTheBudgetTheCallFailsNamingTheStageAndTheProblems() {
        model.says("{\"steps\": []}").says("{\"steps\": [\"x\"]}").says("{\"steps\": [\"a\", \"b\"]}");
        AtomicReference<Object> out = new AtomicReference<>();

        run(asking(2, out));

        assertThat(out.get()).isInstanceOf(CheckedJsonAnswer.InvalidOutputException.class);
        assertThat(((Throwable) out.get()).getMessage()).isEqualTo("plan gave no valid answer in 2 attempts: steps must hold 2 steps");
        assertThat(model.requests).hasSize(2);
    }

    @Test
    void aReasoningPromptsAnswerStreamsItsThinkingAsReasoningAndKeepsItApart() {
        model.says("<thinking>Two and two. </thinking> <answer>Four.</answer>");
        AtomicReference<AssistantMessage> out = new AtomicReference<>();
        ModelRequest ask = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of("2+2?")), List.of());

        List<GraphEvent> events = run((s, ctx) -> StreamedModelCall.run(model, ask, ctx, "m-1", "tutor", StreamedModelCall.Shown.ALL_SPLIT_THINKING)
                .map(reply -> {
                    out.set(reply.message());
                    return Update.of(AgentState.MESSAGES, reply.message());
                }));

        StringBuilder reasoning = new StringBuilder();
        StringBuilder text = new StringBuilder();
        events.forEach(e -> {
            if (e instanceof GraphEvent.Reasoning r) {
                assertThat(r.messageId()).isEqualTo("m-1");
                reasoning.append(r.text());
            } else if (e instanceof GraphEvent.Token t) {
                text.append(t.text());
            }
        });
        assertThat(reasoning.toString()).isEqualTo("Two and two. ");
        assertThat(text.toString()).isEqualTo("Four.");
        assertThat(out.get().content()).isEqualTo("Four.");
        assertThat(out.get().reasoning()).isEqualTo("Two and two.");
    }
}
