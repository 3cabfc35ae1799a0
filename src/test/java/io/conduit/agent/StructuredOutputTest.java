package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A structured answer read by function call, JSON text or extracted JSON, each within its attempts, then given up. */
class StructuredOutputTest {

    static final LastValueChannel<String> OUT = Channels.lastValue("out", String.class, "");
    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}";

    final ScriptedModel model = new ScriptedModel();
    final List<ModelResponse> calls = new CopyOnWriteArrayList<>();

    /** Runs one structured call in a node; its value, or the failure's message. */
    String ask(StructuredOutput.Budget budget) {
        CompiledGraph g = StateGraph.of(StateSchema.of(OUT))
                .node("ask", (s, ctx) -> StructuredOutput.call(model, new StructuredOutput.Request<>(ModelRole.PLANNER, null,
                                List.<ChatMessage>of(new UserMessage("u1", "count the apples")), "count", "The count", SCHEMA, StructuredOutputTest::read),
                        budget, ctx, "ask", calls::add)
                        .map(r -> Update.of(OUT, r.method() + "#" + r.attempt() + "=" + r.value()))
                        .onFailure(StructuredOutput.Exhausted.class).recoverWithItem(e -> Update.of(OUT, "exhausted: " + e.getMessage())))
                .edge(StateGraph.START, "ask").edge("ask", StateGraph.END)
                .compile(GraphOptions.with(new InMemoryCheckpointer()));
        return g.invoke(RunRequest.on("t-" + java.util.UUID.randomUUID()).input(Update.of(OUT, "start"))).await().indefinitely().state().get(OUT);
    }

    static Integer read(JsonNode n) {
        if (!n.path("n").isInt() || n.get("n").asInt() < 0) {
            throw new IllegalArgumentException("n must be a whole number, 0 or more");
        }
        return n.get("n").asInt();
    }

    @Test
    void aFunctionCallIsReadFirst() {
        model.calls(new ToolCall("c1", "count", "{\"n\":3}"));
        assertThat(ask(StructuredOutput.Budget.DEFAULT)).isEqualTo("TOOL_CALL#1=3");
        assertThat(model.requests.get(0).tools()).extracting(t -> t.name()).containsExactly("count");
        assertThat(model.requests.get(0).messages().get(0)).isInstanceOf(SystemMessage.class);
        assertThat(calls).hasSize(1);
    }

    @Test
    void aWrongAnswerIsRetriedWithWhatWasWrong() {
        model.calls(new ToolCall("c1", "count", "{\"n\":-1}")).calls(new ToolCall("c2", "count", "{\"n\":4}"));
        assertThat(ask(StructuredOutput.Budget.DEFAULT)).isEqualTo("TOOL_CALL#2=4");
        List<ChatMessage> retry = model.requests.get(1).messages();
        assertThat(retry.get(retry.size() - 1).content())
                .isEqualTo("Your previous answer could not be used: n must be a whole number, 0 or more. Again: count the apples");
    }

    @Test
    void eachMethodGetsItsAttemptsThenTheNext() {
        model.says("five").says("still no call").says("{\"n\": 5}");
        assertThat(ask(StructuredOutput.Budget.DEFAULT)).isEqualTo("JSON_TEXT#3=5");
        assertThat(model.requests.get(2).tools()).isEmpty();
        model.requests.clear();
        model.says("a").says("b").says("c").says("d").says("Sure! ```json\n{\"n\": 6, \"note\": \"a } in a string\"}\n```");
        assertThat(ask(StructuredOutput.Budget.DEFAULT)).isEqualTo("EXTRACTED_JSON#5=6");
    }

    @Test
    void pastTheBudgetTheCallIsGivenUp() {
        for (int i = 0; i < 6; i++) {
            model.says("no idea");
        }
        assertThat(ask(StructuredOutput.Budget.DEFAULT))
                .isEqualTo("exhausted: no usable count after 6 attempts (3 methods x 2); the last answer: it is not valid JSON");
        assertThat(model.requests).hasSize(6);
        assertThat(calls).hasSize(6);
        model.requests.clear();
        model.says("no").says("no");
        assertThat(ask(new StructuredOutput.Budget(List.of(StructuredOutput.Method.JSON_TEXT), 2))).startsWith("exhausted: no usable count after 2 attempts");
        assertThat(model.requests).hasSize(2);
    }
}
