package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-process simulated model on its own: the shipped script's answers and tool calls as {@link ModelEvent}s,
 * pacing seen through a timer the test fires by hand (emissions are counted, never timed), cancellation, token
 * stamps, and the requests it refuses as the HTTP endpoint would.
 */
class SimulatedLanguageModelTest {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\"},\"key\":{\"type\":\"string\"}}}";
    private static final List<ToolSpec> TOOLS = List.of(new ToolSpec("get_current_time", "The time", SCHEMA),
            new ToolSpec("recall", "Recalls", SCHEMA));
    private static final String PLAN = "Here is a plan for your week: start with the basics this morning, practise after lunch, "
            + "and review in the evening. I checked the time, and I will remember what you tell me about your week.";

    /** A timer that waits until the test fires it, and records what was asked and what was cancelled. */
    private static final class HandTimer implements TokenPacing.Timer {
        final List<Duration> asked = new ArrayList<>();
        final List<Runnable> pending = new ArrayList<>();
        int cancelled;

        @Override
        public Runnable after(Duration delay, Runnable then) {
            asked.add(delay);
            pending.add(then);
            return () -> {
                if (pending.remove(then)) {
                    cancelled++;
                }
            };
        }

        void fire() {
            pending.removeFirst().run();
        }
    }

    private static SimulatedLanguageModel model(TokenPacing pacing, boolean reasoning, boolean stamp) {
        return new SimulatedLanguageModel(new SimulatedModel(SimulatorScript.load(null), reasoning), pacing, stamp,
                "sim-model", "sim-summarizer", (model, in, out) -> model.equals("sim-model") ? in + 1000.0 * out : 0);
    }

    private static SimulatedLanguageModel unpaced() {
        return model(new TokenPacing(Duration.ZERO, Duration.ZERO, (delay, then) -> {
            throw new AssertionError("no timer with zero delays");
        }), false, false);
    }

    private static List<ModelEvent> run(Multi<ModelEvent> stream) {
        AssertSubscriber<ModelEvent> events = stream.subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        events.assertCompleted();
        return events.getItems();
    }

    private static ModelResponse completed(List<ModelEvent> events) {
        assertThat(events.getLast()).isInstanceOf(ModelEvent.Completed.class);
        assertThat(events.stream().filter(e -> e instanceof ModelEvent.Completed)).hasSize(1);
        return ((ModelEvent.Completed) events.getLast()).response();
    }

    private static List<String> tokens(List<ModelEvent> events) {
        return events.stream().filter(e -> e instanceof ModelEvent.Token).map(e -> ((ModelEvent.Token) e).text()).toList();
    }

    private static List<ModelEvent.ToolCallDelta> deltas(List<ModelEvent> events, int index) {
        return events.stream().filter(e -> e instanceof ModelEvent.ToolCallDelta d && d.index() == index)
                .map(e -> (ModelEvent.ToolCallDelta) e).toList();
    }

    private static ModelRequest planner(ChatMessage... messages) {
        return new ModelRequest(ModelRole.PLANNER, List.of(messages), TOOLS);
    }

    @Test
    void theScriptsToolCallsStreamOpenedWithIdAndNameThenTheirArgumentsInPieces() {
        List<ModelEvent> events = run(unpaced().stream(planner(UserMessage.of("Please plan my week"))));

        ModelResponse response = completed(events);
        assertThat(response.toolCalls()).extracting(ToolCall::name).containsExactly("get_current_time", "recall");
        assertThat(response.toolCalls()).extracting(ToolCall::arguments).containsExactly("{\"timezone\":\"UTC\"}", "{\"key\":\"week\"}");
        assertThat(response.finishReason()).isEqualTo("tool_calls");
        assertThat(response.text()).isEmpty();
        assertThat(tokens(events)).isEmpty();
        assertThat(response.timeToFirstTokenMillis()).as("tool calls are not text").isEqualTo(-1);
        for (int i = 0; i < 2; i++) {
            ToolCall call = response.toolCalls().get(i);
            List<ModelEvent.ToolCallDelta> deltas = deltas(events, i);
            assertThat(deltas.getFirst()).isEqualTo(new ModelEvent.ToolCallDelta(i, call.id(), call.name(), ""));
            assertThat(deltas.subList(1, deltas.size())).allSatisfy(d -> {
                assertThat(d.id()).isNull();
                assertThat(d.name()).isNull();
            });
            assertThat(deltas.size() - 1).as("argument pieces").isGreaterThan(1);
            assertThat(String.join("", deltas.stream().map(ModelEvent.ToolCallDelta::argumentsDelta).toList())).isEqualTo(call.arguments());
        }
        assertThat(response.toolCalls().get(0).id()).isNotEqualTo(response.toolCalls().get(1).id());
        assertThat(deltas(events, 1).getFirst()).as("the second call opens after the first has all its arguments")
                .isSameAs(events.get(deltas(events, 0).size()));
    }

    @Test
    void afterTheRoundsTheAnswerStreamsWordByWordWithUsageAndCost() {
        UserMessage ask = UserMessage.of("Please plan my week");
        ModelRequest request = planner(new SystemMessage("s", "You are a planner."), ask,
                new AssistantMessage("a1", "", List.of(new ToolCall("c1", "get_current_time", "{}"), new ToolCall("c2", "recall", "{}")), null, "planner"),
                new ToolMessage("t1", "c1", "get_current_time", "noon", false),
                new ToolMessage("t2", "c2", "recall", "", false),
                new AssistantMessage("a2", "", List.of(new ToolCall("c3", "get_current_time", "{}")), null, "planner"),
                new ToolMessage("t3", "c3", "get_current_time", "noon", false));

        List<ModelEvent> events = run(unpaced().stream(request));

        ModelResponse response = completed(events);
        assertThat(response.text()).isEqualTo(PLAN);
        assertThat(String.join("", tokens(events))).isEqualTo(PLAN);
        assertThat(tokens(events)).hasSize(TokenCount.of(PLAN)).allSatisfy(t -> assertThat(t.strip()).doesNotContain(" "));
        assertThat(events).hasSize(TokenCount.of(PLAN) + 1);
        assertThat(response.toolCalls()).isEmpty();
        assertThat(response.finishReason()).isEqualTo("stop");
        assertThat(response.provider()).isEqualTo("simulated");
        assertThat(response.model()).isEqualTo("sim-model");
        int prompt = TokenCount.of("You are a planner.") + TokenCount.of("Please plan my week") + 2;
        assertThat(response.inputTokens()).isEqualTo(prompt);
        assertThat(response.outputTokens()).isEqualTo(TokenCount.of(PLAN));
        assertThat(response.estimatedCostUsd()).isEqualTo(prompt + 1000.0 * TokenCount.of(PLAN));
        assertThat(response.timeToFirstTokenMillis()).isNotNegative();
        assertThat(response.reasoning()).isNull();
    }

    @Test
    void aRequestWithoutToolsGetsTheAnswerAtOnceAndReasoningStreamsFirstWhenOn() {
        ModelRequest request = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of("Please plan my week")), List.of());
        SimulatedLanguageModel reasoning = model(new TokenPacing(Duration.ZERO, Duration.ZERO, null), true, false);

        List<ModelEvent> events = run(reasoning.stream(request));

        ModelResponse response = completed(events);
        assertThat(response.text()).isEqualTo(PLAN);
        assertThat(events.getFirst()).isInstanceOf(ModelEvent.Reasoning.class);
        List<String> thought = events.stream().filter(e -> e instanceof ModelEvent.Reasoning).map(e -> ((ModelEvent.Reasoning) e).text()).toList();
        assertThat(String.join("", thought)).isEqualTo(response.reasoning()).isEqualTo("The user said: \"Please plan my week\". I will answer.");
        int lastThought = events.indexOf(events.stream().filter(e -> e instanceof ModelEvent.Reasoning).toList().getLast());
        assertThat(events.get(lastThought + 1)).isInstanceOf(ModelEvent.Token.class);
    }

    @Test
    void theSummarizerAndAnAssistantsOverrideAreReportedUnderTheirModelNames() {
        ModelRequest summary = new ModelRequest(ModelRole.SUMMARIZER, List.of(new SystemMessage("s", "Summarize the conversation."),
                UserMessage.of("User: I like tea\nAssistant: noted")), List.of());

        ModelResponse summarized = completed(run(unpaced().stream(summary)));
        ModelResponse overridden = completed(run(unpaced().stream(planner(UserMessage.of("hello")).withModel("custom"))));

        assertThat(summarized.text()).isEqualTo("Summary: I like tea.");
        assertThat(summarized.model()).isEqualTo("sim-summarizer");
        assertThat(summarized.estimatedCostUsd()).isZero();
        assertThat(overridden.model()).isEqualTo("custom");
        assertThat(overridden.text()).isEqualTo("This is the Conduit simulator, not a real model. You said: hello");
    }

    @Test
    void eachEventWaitsForItsTimerTheFirstForTheTimeToFirstToken() {
        HandTimer timer = new HandTimer();
        SimulatedLanguageModel paced = model(new TokenPacing(Duration.ofMillis(300), Duration.ofMillis(20), timer), false, false);
        ModelRequest request = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of("hello there")), List.of());
        int expected = TokenCount.of("This is the Conduit simulator, not a real model. You said: hello there") + 1;

        AssertSubscriber<ModelEvent> events = paced.stream(request).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        for (int fired = 0; fired < expected; fired++) {
            assertThat(events.getItems()).as("emitted before timer %d fired", fired + 1).hasSize(fired);
            assertThat(timer.pending).as("one timer at a time").hasSize(1);
            timer.fire();
        }
        events.assertCompleted();
        assertThat(events.getItems()).hasSize(expected);
        assertThat(timer.asked).hasSize(expected);
        assertThat(timer.asked.getFirst()).isEqualTo(Duration.ofMillis(300));
        assertThat(timer.asked.subList(1, expected)).containsOnly(Duration.ofMillis(20));
    }

    @Test
    void zeroDelaysEmitEverythingWithoutATimer() {
        List<Duration> asked = new ArrayList<>();
        SimulatedLanguageModel model = model(new TokenPacing(Duration.ZERO, Duration.ZERO, (delay, then) -> {
            asked.add(delay);
            then.run();
            return () -> { };
        }), false, false);

        List<ModelEvent> events = run(model.stream(planner(UserMessage.of("good morning"))));

        assertThat(completed(events).toolCalls()).hasSize(2);
        assertThat(asked).isEmpty();
    }

    @Test
    void aCancelledStreamStopsEmittingAndCancelsItsPendingTimer() {
        HandTimer timer = new HandTimer();
        SimulatedLanguageModel paced = model(new TokenPacing(Duration.ofMillis(5), Duration.ofMillis(5), timer), false, false);
        ModelRequest request = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of("Please plan my week")), List.of());

        AssertSubscriber<ModelEvent> events = paced.stream(request).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        timer.fire();
        timer.fire();
        assertThat(tokens(events.getItems())).containsExactly("Here ", "is ");
        events.cancel();

        assertThat(timer.cancelled).as("the pending wait was cancelled").isEqualTo(1);
        assertThat(timer.asked).as("no wait after the cancellation").hasSize(3);
        assertThat(events.getItems()).hasSize(2);
        events.assertNotTerminated();
    }

    @Test
    void aCancelledUnpacedStreamStopsAtOnceToo() {
        AssertSubscriber<ModelEvent> events = unpaced().stream(new ModelRequest(ModelRole.GENERATOR,
                List.of(UserMessage.of("Please plan my week")), List.of())).subscribe().withSubscriber(AssertSubscriber.create(3));

        events.cancel();
        events.request(100);

        assertThat(events.getItems()).hasSize(3);
        events.assertNotTerminated();
    }

    @Test
    void stampedTokensAreTheirEmitTimeInEpochMicrosecondsAndMakeTheAnswer() {
        long before = micros(Instant.now());
        List<ModelEvent> events = run(model(new TokenPacing(Duration.ZERO, Duration.ZERO, null), false, true)
                .stream(new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of("Please plan my week")), List.of())));
        long after = micros(Instant.now());

        List<String> stamps = tokens(events);
        assertThat(stamps).hasSize(TokenCount.of(PLAN)).allSatisfy(s -> assertThat(s).matches("\\d{16} "));
        List<Long> times = stamps.stream().map(s -> Long.parseLong(s.strip())).toList();
        assertThat(times).isSorted().allSatisfy(t -> assertThat(t).isBetween(before, after));
        ModelResponse response = completed(events);
        assertThat(response.text()).isEqualTo(String.join("", stamps));
        assertThat(response.outputTokens()).isEqualTo(stamps.size());
    }

    @Test
    void aToolCallLeftUnansweredIsRefusedAsTheHttpEndpointRefusesIt() {
        ModelRequest request = planner(UserMessage.of("Please plan my week"),
                new AssistantMessage("a1", "", List.of(new ToolCall("c1", "recall", "{}"), new ToolCall("c2", "recall", "{}")), null, "planner"),
                new ToolMessage("t1", "c1", "recall", "", false));

        AssertSubscriber<ModelEvent> events = unpaced().stream(request).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        events.assertFailedWith(ModelException.class, "simulated: invalid request: An assistant message with 'tool_calls' must be followed");
        assertThat(events.getFailure().getMessage()).endsWith("did not have response messages: c2");
        assertThat(((ModelException) events.getFailure()).provider()).isEqualTo("simulated");
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}
