package io.conduit.llm;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ToolSpec;
import io.conduit.agent.message.UserMessage;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Models pointed at a stub, a conversation that uses every message kind, and ways to run a stream in a test. */
final class TestModels {

    static final Duration BOUND = Duration.ofSeconds(10);
    /** The timers that watch the test models' calls for silence. */
    private static final Vertx TIMERS = Vertx.vertx();
    static final String WEATHER_SCHEMA = """
            {"type":"object","properties":{
              "city":{"type":"string","description":"City name"},
              "unit":{"type":"string","enum":["celsius","fahrenheit"]}},
             "required":["city"]}""";

    private TestModels() {
    }

    static LangChain4jModel model(LlmProvider provider, ProviderStub stub, String modelName) {
        return model(provider, stub.baseUrl(), modelName);
    }

    static LangChain4jModel model(LlmProvider provider, String baseUrl, String modelName) {
        return model(provider, baseUrl, modelName, Duration.ofSeconds(5));
    }

    /** @param idleTimeout how long a silent stream is waited for (the endpoint's timeout) */
    static LangChain4jModel model(LlmProvider provider, String baseUrl, String modelName, Duration idleTimeout) {
        LlmEndpoint endpoint = new LlmEndpoint(provider, baseUrl, "test-key", modelName, "cheap-model", 0.3,
                idleTimeout, false);
        // tiny backoff: the tests count attempts, never time them
        RetryPolicy retry = new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(5));
        PriceTable prices = new PriceTable(Map.of(modelName, new PriceTable.Price(2.0, 8.0)));
        return new LangChain4jModel(ProviderModels.build(endpoint), endpoint, retry, prices, TIMERS);
    }

    static ModelRequest conversation() {
        return new ModelRequest(ModelRole.PLANNER, List.of(
                new SystemMessage("s1", "You are terse."),
                new UserMessage("u1", "Weather in Paris?"),
                new AssistantMessage("a1", "", List.of(new ToolCall("call_1", "weather", "{\"city\":\"Paris\"}")), null, "planner"),
                new ToolMessage("t1", "call_1", "weather", "18C, sunny", false),
                new RemoveMessage("gone"),
                new UserMessage("u2", "And tomorrow?")),
                List.of(new ToolSpec("weather", "Current weather for a city", WEATHER_SCHEMA)));
    }

    static ModelRequest question(String text) {
        return new ModelRequest(ModelRole.GENERATOR, List.of(new UserMessage("u1", text)), List.of());
    }

    static List<ModelEvent> run(Multi<ModelEvent> stream) {
        return stream.collect().asList().await().atMost(BOUND);
    }

    /** Runs a stream that must fail; the events seen before the failure go to {@code seen}. */
    static Throwable failure(Multi<ModelEvent> stream, List<ModelEvent> seen) {
        try {
            stream.onItem().invoke(seen::add).collect().asList().await().atMost(BOUND);
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError("the stream completed; events: " + seen);
    }

    static Throwable failure(Multi<ModelEvent> stream) {
        return failure(stream, new CopyOnWriteArrayList<>());
    }

    static ModelResponse completed(List<ModelEvent> events) {
        List<ModelEvent> completed = events.stream().filter(e -> e instanceof ModelEvent.Completed).toList();
        if (completed.size() != 1 || events.getLast() != completed.getFirst()) {
            throw new AssertionError("expected exactly one Completed, last: " + events);
        }
        return ((ModelEvent.Completed) completed.getFirst()).response();
    }

    static List<String> tokens(List<ModelEvent> events) {
        return events.stream().filter(e -> e instanceof ModelEvent.Token).map(e -> ((ModelEvent.Token) e).text()).toList();
    }

    static List<ModelEvent.ToolCallDelta> toolCallDeltas(List<ModelEvent> events) {
        return events.stream().filter(e -> e instanceof ModelEvent.ToolCallDelta).map(e -> (ModelEvent.ToolCallDelta) e).toList();
    }

    /** The argument fragments of call {@code index}, joined as a client joins them. */
    static String joinedArguments(List<ModelEvent> events, int index) {
        return String.join("", toolCallDeltas(events).stream().filter(d -> d.index() == index)
                .map(ModelEvent.ToolCallDelta::argumentsDelta).toList());
    }

    static List<String> reasoning(List<ModelEvent> events) {
        return events.stream().filter(e -> e instanceof ModelEvent.Reasoning).map(e -> ((ModelEvent.Reasoning) e).text()).toList();
    }
}
