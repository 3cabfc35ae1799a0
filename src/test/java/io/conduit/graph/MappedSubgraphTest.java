package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A subgraph with a state of its own, reached by Sends: each task starts from the mapping's input, runs in its own
 * namespace, and hands back only what the mapping makes of its result, even where the subgraph has a channel of the
 * parent's name.
 */
class MappedSubgraphTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final StateSchema PARENT = StateSchema.of(MSGS);

    // the worker's own channels: a task, and a "messages" channel that is not the parent's
    private static final LastValueChannel<String> TASK = TestMessages.text("task");
    private static final MessagesChannel<Item> WORK = TestMessages.messages();
    private static final StateSchema WORKER = StateSchema.of(TASK, WORK);

    private static CompiledGraph worker() {
        return StateGraph.of(WORKER)
                .node("think", (s, ctx) -> done(Update.of(WORK, Msg.ai("think-" + s.get(TASK), "thinking about " + s.get(TASK)))))
                .node("answer", (s, ctx) -> done(Update.of(WORK, Msg.ai("answer-" + s.get(TASK), "done: " + s.get(TASK)))))
                .edge(START, "think").edge("think", "answer").edge("answer", END)
                .compile();
    }

    private static final SubgraphMapping MAPPING = new SubgraphMapping() {
        @Override
        public Update input(State parent, NodeContext ctx) {
            return Update.of(TASK, ctx.input(String.class));
        }

        @Override
        public Update output(State parent, State result, NodeContext ctx) {
            MessageList<Item> work = result.get(WORK);
            Msg last = (Msg) work.get(work.size() - 1);
            return Update.of(MSGS, Msg.ai("result-" + result.get(TASK), last.text()));
        }
    };

    private static CompiledGraph parent(Backends.Backend b) {
        return StateGraph.of(PARENT)
                .node("plan", (s, ctx) -> done(Update.none()))
                .node("worker", worker(), MAPPING)
                .node("report", (s, ctx) -> done(Update.of(MSGS, Msg.ai("report", "reported " + (s.get(MSGS).size() - 1)))))
                .edge(START, "plan")
                .route("plan", s -> Route.send(List.of(new Send("worker", "a"), new Send("worker", "b"))), "worker")
                .edge("worker", "report").edge("report", END)
                .compile(b.options());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void eachSendRunsTheSubgraphFromItsInputAndHandsBackOnlyTheMappedResult(Backends.Backend b) {
        List<GraphEvent> events = run(parent(b), b.on(newThread()).input(Update.of(MSGS, Msg.user("u", "go"))));

        MessageList<Item> messages = finished(events).state().get(MSGS);
        assertThat(ids(messages)).containsExactly("u", "result-a", "result-b", "report");
        assertThat(((Msg) messages.byId("result-b")).text()).isEqualTo("done: b");
        assertThat(((Msg) messages.byId("report")).text()).isEqualTo("reported 2");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void eachSubgraphTaskStreamsInANamespaceOfItsOwnNamedAfterTheNode(Backends.Backend b) {
        List<GraphEvent> events = run(parent(b), b.on(newThread()).input(Update.of(MSGS, Msg.user("u", "go"))));

        List<GraphEvent.TaskStarted> inner = ofType(events, GraphEvent.TaskStarted.class).stream()
                .filter(e -> !e.tag().ns().isEmpty()).toList();
        assertThat(inner).extracting(e -> e.tag().node()).containsOnly("think", "answer").hasSize(4);
        Set<String> namespaces = inner.stream().map(e -> e.tag().ns()).collect(Collectors.toSet());
        assertThat(namespaces).hasSize(2).allSatisfy(ns -> assertThat(ns).startsWith("worker:"));
        Set<String> workerTasks = ofType(events, GraphEvent.TaskStarted.class).stream()
                .filter(e -> e.tag().ns().isEmpty() && "worker".equals(e.tag().node()))
                .map(e -> "worker:" + e.taskId()).collect(Collectors.toSet());
        assertThat(namespaces).isEqualTo(workerTasks);
    }
}
