package io.conduit.llm;

import static io.conduit.llm.TestModels.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import io.conduit.llm.simulator.SimulatedLanguageModel;
import io.conduit.llm.simulator.SimulatorConfig;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The in-process simulated model streams what the openai provider makes of the simulator's HTTP endpoint: the same
 * events in the same order (tool-call ids aside, which are unique per call), the same text, calls, usage and finish.
 * And with delays set, its events come from Vert.x timers, on an event loop.
 */
@QuarkusTest
class InProcessSimulatorParityTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\"},\"key\":{\"type\":\"string\"}}}";
    private static final List<ToolSpec> TOOLS = List.of(new ToolSpec("get_current_time", "The time", SCHEMA),
            new ToolSpec("recall", "Recalls", SCHEMA), new ToolSpec("remember", "Remembers", SCHEMA));

    @TestHTTPResource("/simulator/v1")
    URL simulator;

    @Inject
    SimulatorConfig config;

    @Inject
    Vertx vertx;

    private SimulatedLanguageModel inProcess(SimulatorConfig config) {
        return SimulatedLanguageModel.create(config, vertx, "sim-test", "cheap-model", (model, in, out) -> 0);
    }

    static List<ModelRequest> requests() {
        UserMessage plan = new UserMessage("u1", "Please plan my week");
        return List.of(
                new ModelRequest(ModelRole.PLANNER, List.of(new SystemMessage("s", "You plan."), plan), TOOLS),
                new ModelRequest(ModelRole.PLANNER, List.of(plan,
                        new AssistantMessage("a1", "", List.of(new ToolCall("c1", "get_current_time", "{}"), new ToolCall("c2", "recall", "{}")), null, "planner"),
                        new ToolMessage("t1", "c1", "get_current_time", "noon", false),
                        new ToolMessage("t2", "c2", "recall", "", false)), TOOLS),
                new ModelRequest(ModelRole.GENERATOR, List.of(plan), List.of()),
                new ModelRequest(ModelRole.PLANNER, List.of(new UserMessage("u2", "remember that my cat is \"Tom\" 🐈")), TOOLS),
                new ModelRequest(ModelRole.GENERATOR, List.of(new UserMessage("u3", "  hello,\n  world  ")), List.of()),
                new ModelRequest(ModelRole.SUMMARIZER, List.of(new SystemMessage("s", "Summarize this."),
                        new UserMessage("u4", "User: I like tea\nAssistant: noted\nUser: and cake")), List.of()));
    }

    @Test
    void theSameEventsAsTheOpenAiProviderMakesOfTheHttpEndpoint() {
        LangChain4jModel overHttp = TestModels.model(LlmProvider.OPENAI, simulator.toString(), "sim-test");
        SimulatedLanguageModel direct = inProcess(config);

        for (ModelRequest request : requests()) {
            List<ModelEvent> viaHttp = run(overHttp.stream(request));
            List<ModelEvent> viaJvm = run(direct.stream(request));

            assertThat(comparable(viaJvm)).as("events for %s", request.messages().getLast()).isEqualTo(comparable(viaHttp));
            ModelResponse http = TestModels.completed(viaHttp);
            ModelResponse jvm = TestModels.completed(viaJvm);
            assertThat(jvm.text()).isEqualTo(http.text());
            assertThat(jvm.reasoning()).isEqualTo(http.reasoning());
            assertThat(jvm.toolCalls()).extracting(ToolCall::name, ToolCall::arguments)
                    .isEqualTo(http.toolCalls().stream().map(c -> org.assertj.core.groups.Tuple.tuple(c.name(), c.arguments())).toList());
            assertThat(jvm.inputTokens()).isEqualTo(http.inputTokens());
            assertThat(jvm.outputTokens()).isEqualTo(http.outputTokens());
            assertThat(jvm.finishReason()).isEqualTo(http.finishReason());
            assertThat(jvm.model()).isEqualTo(http.model());
            assertThat(jvm.provider()).isEqualTo("simulated");
        }
    }

    @Test
    void withDelaysTheEventsComeFromVertxTimersOnAnEventLoop() {
        SimulatedLanguageModel paced = inProcess(new Paced(config));
        List<Boolean> onEventLoop = new CopyOnWriteArrayList<>();
        ModelRequest request = requests().get(2);

        // subscribed on an event loop, as a run's model call is: a timer that fires while the subscribing thread is
        // still in the pacing's drain has that thread emit (the test thread, when the test subscribed itself)
        Context loop = vertx.getOrCreateContext();
        List<ModelEvent> events = run(paced.stream(request).runSubscriptionOn(task -> loop.runOnContext(v -> task.run()))
                .onItem().invoke(e -> onEventLoop.add(Context.isOnEventLoopThread())));

        assertThat(TestModels.completed(events).text()).startsWith("Here is a plan for your week");
        assertThat(onEventLoop).hasSize(events.size()).containsOnly(true);
        assertThat(comparable(events)).isEqualTo(comparable(run(inProcess(config).stream(request))));
    }

    /** The events with what differs per call taken out: tool-call ids (kept only as "has an id"), timings and cost. */
    private static List<Object> comparable(List<ModelEvent> events) {
        List<Object> out = new ArrayList<>();
        Map<String, String> ids = new HashMap<>();
        for (ModelEvent e : events) {
            out.add(switch (e) {
                case ModelEvent.ToolCallDelta d -> new ModelEvent.ToolCallDelta(d.index(),
                        d.id() == null ? null : ids.computeIfAbsent(d.id(), k -> "id" + ids.size()), d.name(), d.argumentsDelta());
                case ModelEvent.Completed c -> "completed " + c.response().finishReason() + " " + c.response().toolCalls().stream()
                        .map(t -> ids.get(t.id()) + ":" + t.name()).toList();
                default -> e;
            });
        }
        return out;
    }

    /** The test configuration with small delays. */
    private record Paced(SimulatorConfig base) implements SimulatorConfig {
        @Override
        public boolean enabled() {
            return base.enabled();
        }

        @Override
        public Duration timeToFirstToken() {
            return Duration.ofMillis(2);
        }

        @Override
        public Duration interTokenDelay() {
            return Duration.ofMillis(1);
        }

        @Override
        public boolean reasoning() {
            return base.reasoning();
        }

        @Override
        public boolean stampTokens() {
            return false;
        }

        @Override
        public Optional<String> script() {
            return base.script();
        }
    }
}
