package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a node says about the work inside it: tool-call chunks beside its tokens, and child runs (a model call, a
 * tool call) that start and end. They come in the order the node said them, tagged with the node and the step.
 */
class NodeWorkEventsTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final StateSchema SCHEMA = StateSchema.of(MSGS);

    /** A node that calls a "model" which streams a tool call in pieces, then reports the call as a child run. */
    private static Node planner() {
        return (s, ctx) -> {
            ctx.childStarted("c1", "chat_model", "planner", Map.of("messages", List.of("hi")));
            ctx.token("m1", "Let me look.");
            ctx.toolCallChunk("m1", 0, "call_1", "search", "{\"q\":");
            ctx.toolCallChunk("m1", 0, null, null, "\"paris\"}");
            ctx.childEnded("c1", "chat_model", "planner", "the message", null);
            ctx.childStarted("c2", "tool", "search", Map.of("q", "paris"));
            ctx.childEnded("c2", "tool", "search", null, "no network");
            return done(Update.of(MSGS, Msg.ai("m1", "Let me look.")));
        };
    }

    private static Update user() {
        return Update.of(MSGS, Msg.user("u", "hi"));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void chunksAndChildRunsComeInOrderTaggedWithTheirNodeAndStep(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("first", (s, ctx) -> done(Update.of(MSGS, Msg.ai("f", "f"))))
                .node("planner", planner())
                .edge(START, "first").edge("first", "planner").edge("planner", END)
                .compile(b.options());
        List<GraphEvent> events = run(graph, b.on(newThread()).input(user()));

        finished(events);
        List<GraphEvent> said = events.stream().filter(e -> e instanceof GraphEvent.ChildStarted || e instanceof GraphEvent.ChildEnded
                || e instanceof GraphEvent.ToolCallChunk || e instanceof GraphEvent.Token).toList();
        assertThat(said).extracting(e -> e.getClass().getSimpleName()).containsExactly(
                "ChildStarted", "Token", "ToolCallChunk", "ToolCallChunk", "ChildEnded", "ChildStarted", "ChildEnded");
        assertThat(said).allSatisfy(e -> {
            assertThat(e.tag().node()).isEqualTo("planner");
            assertThat(e.tag().step()).isEqualTo(1);
            assertThat(e.tag().ns()).isEmpty();
        });
        assertThat(ofType(events, GraphEvent.ToolCallChunk.class)).containsExactly(
                new GraphEvent.ToolCallChunk(said.get(2).tag(), "m1", 0, "call_1", "search", "{\"q\":"),
                new GraphEvent.ToolCallChunk(said.get(2).tag(), "m1", 0, null, null, "\"paris\"}"));
        GraphEvent.ChildStarted model = (GraphEvent.ChildStarted) said.get(0);
        assertThat(model.childId()).isEqualTo("c1");
        assertThat(model.kind()).isEqualTo("chat_model");
        assertThat(model.name()).isEqualTo("planner");
        assertThat(model.input()).isEqualTo(Map.of("messages", List.of("hi")));
        GraphEvent.ChildEnded tool = (GraphEvent.ChildEnded) said.get(6);
        assertThat(tool).extracting(GraphEvent.ChildEnded::childId, GraphEvent.ChildEnded::kind, GraphEvent.ChildEnded::name,
                GraphEvent.ChildEnded::output, GraphEvent.ChildEnded::error).containsExactly("c2", "tool", "search", null, "no network");
        // all of it while the planner's task runs
        int started = events.indexOf(ofType(events, GraphEvent.TaskStarted.class).get(1));
        int taskFinished = events.indexOf(ofType(events, GraphEvent.TaskFinished.class).get(1));
        assertThat(events.indexOf(said.get(0))).isGreaterThan(started);
        assertThat(events.indexOf(said.get(6))).isLessThan(taskFinished);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSubgraphsChunksAndChildRunsReachTheParentInTheSubgraphsNamespace(Backends.Backend b) {
        CompiledGraph sub = StateGraph.of(SCHEMA).node("planner", planner())
                .edge(START, "planner").edge("planner", END).compile();
        CompiledGraph graph = StateGraph.of(SCHEMA).node("sub", sub)
                .edge(START, "sub").edge("sub", END).compile(b.options());
        List<GraphEvent> events = run(graph, b.on(newThread()).input(user()));

        finished(events);
        String subTask = ofType(events, GraphEvent.TaskStarted.class).get(0).taskId();
        List<GraphEvent> said = events.stream().filter(e -> e instanceof GraphEvent.ChildStarted || e instanceof GraphEvent.ChildEnded
                || e instanceof GraphEvent.ToolCallChunk).toList();
        assertThat(said).hasSize(6).allSatisfy(e -> {
            assertThat(e.tag().ns()).isEqualTo("sub:" + subTask);
            assertThat(e.tag().node()).isEqualTo("planner");
        });
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void nothingIsStreamedAfterTheRunEnded(Backends.Backend b) {
        AtomicReference<NodeContext> leaked = new AtomicReference<>();
        CompletableFuture<Update> never = new CompletableFuture<>();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> {
                    leaked.set(ctx);
                    ctx.childStarted("c1", "chat_model", "a", null);
                    return Uni.createFrom().completionStage(never);
                })
                .edge(START, "a").edge("a", END)
                .compile(b.options());
        Runs.Recorder rec = Runs.Recorder.start(graph.stream(b.on(newThread()).input(user())));
        rec.awaitFirst(e -> e instanceof GraphEvent.ChildStarted);
        rec.cancel();

        // the node's work goes on after its run was cancelled: what it says now reaches no one and breaks nothing
        NodeContext ctx = leaked.get();
        ctx.toolCallChunk("m", 0, "call", "t", "{}");
        ctx.childEnded("c1", "chat_model", "a", "late", null);
        ctx.childStarted("c2", "tool", "t", Map.of());
        assertThat(rec.events()).noneMatch(e -> e instanceof GraphEvent.ToolCallChunk || e instanceof GraphEvent.ChildEnded)
                .filteredOn(e -> e instanceof GraphEvent.ChildStarted).hasSize(1);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aNodeThatKeepsTalkingAfterItsRunFinishedAddsNothingToTheStream(Backends.Backend b) {
        AtomicReference<NodeContext> leaked = new AtomicReference<>();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> {
                    leaked.set(ctx);
                    return done(Update.of(MSGS, Msg.ai("a", "a")));
                })
                .edge(START, "a").edge("a", END)
                .compile(b.options());
        Runs.Recorder rec = Runs.Recorder.start(graph.stream(b.on(newThread()).input(user())));
        assertThat(rec.awaitEnd()).isInstanceOf(GraphEvent.RunFinished.class);
        int before = rec.events().size();

        leaked.get().childStarted("late", "tool", "t", null);
        leaked.get().toolCallChunk("m", 0, "call", "t", "{}");
        leaked.get().childEnded("late", "tool", "t", "x", null);

        assertThat(rec.events()).hasSize(before);
        assertThat(rec.events().get(before - 1).terminal()).isTrue();
    }
}
