package io.conduit.llm;

import static io.conduit.llm.TestModels.completed;
import static io.conduit.llm.TestModels.joinedArguments;
import static io.conduit.llm.TestModels.run;
import static io.conduit.llm.TestModels.toolCallDeltas;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The openai provider against the built-in simulator: its tool calls reach the caller in pieces, as a real model's
 * do, so that clients of a service on the simulator see arguments stream too.
 */
@QuarkusTest
class SimulatorToolCallDeltasTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\"},\"key\":{\"type\":\"string\"}}}";

    @TestHTTPResource("/simulator/v1")
    URL simulator;

    @Test
    void aToolCallsArgumentsArriveInSeveralPiecesThatAddUpToThem() {
        LangChain4jModel model = TestModels.model(LlmProvider.OPENAI, simulator.toString(), "sim-test");
        ModelRequest request = new ModelRequest(ModelRole.PLANNER, List.of(UserMessage.of("plan my holidays")),
                List.of(new ToolSpec("get_current_time", "The time", SCHEMA), new ToolSpec("recall", "Recalls", SCHEMA)));

        List<ModelEvent> events = run(model.stream(request));

        List<ToolCall> calls = completed(events).toolCalls();
        assertThat(calls).extracting(ToolCall::name).containsExactly("get_current_time", "recall");
        for (int i = 0; i < calls.size(); i++) {
            int index = i;
            List<ModelEvent.ToolCallDelta> deltas = toolCallDeltas(events).stream().filter(d -> d.index() == index).toList();
            assertThat(deltas.getFirst().id()).isEqualTo(calls.get(i).id());
            assertThat(deltas.getFirst().name()).isEqualTo(calls.get(i).name());
            assertThat(deltas.subList(1, deltas.size())).allSatisfy(d -> assertThat(d.id()).isNull());
            assertThat(deltas.stream().filter(d -> !d.argumentsDelta().isEmpty())).as("argument pieces").hasSizeGreaterThan(2);
            assertThat(joinedArguments(events, i)).isEqualTo(calls.get(i).arguments());
        }
    }
}
