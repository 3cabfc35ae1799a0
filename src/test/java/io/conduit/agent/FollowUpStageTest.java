package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelRole;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The follow-up stage: one call to the cheap model, the questions as a custom event and in state, never streamed as text. */
class FollowUpStageTest {

    private static final LastValueChannel<Suggestions> SUGGESTIONS = Channels.lastValue("suggestions", Suggestions.class, Suggestions.NONE);
    private static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES, SUGGESTIONS, AgentState.LLM_CALLS, AgentState.USAGE);

    private static List<GraphEvent> run(ScriptedModel model, String modelName, Map<String, Object> configurable, Update input) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("follow_up", new FollowUpStage(model, modelName, 2, SUGGESTIONS))
                .edge(StateGraph.START, "follow_up").edge("follow_up", StateGraph.END)
                .compile(GraphOptions.with(new InMemoryCheckpointer()));
        return graph.stream(RunRequest.on("t-" + UUID.randomUUID()).input(input).configurable(configurable))
                .collect().asList().await().atMost(Duration.ofSeconds(10));
    }

    private static Update turn() {
        return Update.of(AgentState.MESSAGES, new UserMessage("u1", "How do I boil an egg?"))
                .set(AgentState.MESSAGES, new AssistantMessage("a1", "Ten minutes in boiling water.", List.of(), null, "planner"));
    }

    @Test
    void theCheapModelsQuestionsArriveAsACustomEventAndInState() {
        ScriptedModel model = new ScriptedModel().says("1. How do I peel it?\n- \"And a soft one?\"\n\n3. How do I peel it?\nA third one");

        List<GraphEvent> events = run(model, null, Map.of(), turn());

        GraphEvent.RunFinished end = (GraphEvent.RunFinished) events.get(events.size() - 1);
        assertThat(end.state().get(SUGGESTIONS).questions()).containsExactly("How do I peel it?", "And a soft one?");
        assertThat(events.stream().filter(e -> e instanceof GraphEvent.Custom c && c.name().equals(FollowUpStage.EVENT)))
                .singleElement().satisfies(e -> assertThat(((GraphEvent.Custom) e).payload())
                        .isEqualTo(Map.of("questions", List.of("How do I peel it?", "And a soft one?"))));
        assertThat(events).noneMatch(e -> e instanceof GraphEvent.Token);
        assertThat(model.roles()).containsExactly(ModelRole.SUMMARIZER);
        assertThat(model.requests.get(0).model()).isNull();
        assertThat(model.requests.get(0).messages().get(1).content()).contains("User: How do I boil an egg?\nAssistant: Ten minutes");
        assertThat(end.state().get(AgentState.USAGE).calls()).isEqualTo(1);
    }

    @Test
    void aNamedModelIsAskedInsteadOfTheSummarizers() {
        ScriptedModel model = new ScriptedModel().says("Why?");

        run(model, "tiny-model", Map.of(), turn());

        assertThat(model.requests.get(0).model()).isEqualTo("tiny-model");
    }

    @Test
    void nothingIsAskedWhenTheRunTurnsThemOffOrTheTurnHasNoAnswer() {
        ScriptedModel model = new ScriptedModel();

        run(model, null, Map.of(FollowUpStage.SETTING, false), turn());
        List<GraphEvent> unanswered = run(model, null, Map.of(), Update.of(AgentState.MESSAGES, new UserMessage("u1", "hi"))
                .set(AgentState.MESSAGES, new AssistantMessage("a1", "", List.of(new ToolCall("c", "t", "{}")), null, "p")));

        assertThat(model.requests).isEmpty();
        assertThat(unanswered).noneMatch(e -> e instanceof GraphEvent.Custom);
    }
}
