package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.Command;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Durability;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.RunRequest;
import io.conduit.graph.Update;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import io.conduit.agent.port.InMemoryUserMemory;
import java.util.UUID;

/** Builds the assistant from test parts and plays turns on one thread, collecting every event. */
final class AgentTurns {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T10:15:30Z"), ZoneOffset.UTC);

    final ScriptedModel model = new ScriptedModel();
    final ScriptedTools tools = new ScriptedTools();
    final InMemoryUserMemory memory = new InMemoryUserMemory();
    final CompiledGraph graph;
    final String thread = "agent-" + UUID.randomUUID();
    Durability durability = Durability.SYNC;

    AgentTurns(AgentConfig config) {
        this(config, new InMemoryCheckpointer(), null);
    }

    AgentTurns(AgentConfig config, Checkpointer store, IngressStage.ModerationHook moderation) {
        this.graph = AgentGraph.compile(config, model, tools, memory, moderation, CLOCK, store);
    }

    List<GraphEvent> say(String text) {
        return run(RunRequest.on(thread).durability(durability)
                .input(Update.of(AgentState.MESSAGES, (ChatMessage) UserMessage.of(text)).set(AgentState.USER_ID, "ada")));
    }

    List<GraphEvent> resume(Object value) {
        return run(RunRequest.on(thread).durability(durability).command(Command.resume(value)));
    }

    List<GraphEvent> run(RunRequest request) {
        return graph.stream(request).collect().asList().await().atMost(Duration.ofSeconds(10));
    }

    io.conduit.graph.State state() {
        return graph.state(thread).await().atMost(Duration.ofSeconds(10)).orElseThrow().values();
    }

    static GraphEvent last(List<GraphEvent> events) {
        return events.get(events.size() - 1);
    }

    static List<String> nodes(List<GraphEvent> events) {
        return events.stream().filter(e -> e instanceof GraphEvent.TaskStarted).map(e -> e.tag().node()).toList();
    }

    static List<GraphEvent.Custom> custom(List<GraphEvent> events, String name) {
        return events.stream().filter(e -> e instanceof GraphEvent.Custom c && c.name().equals(name)).map(e -> (GraphEvent.Custom) e).toList();
    }

    static <T extends GraphEvent> List<T> ofType(List<GraphEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The child runs of one kind that started, in order. */
    static List<GraphEvent.ChildStarted> started(List<GraphEvent> events, String kind) {
        return ofType(events, GraphEvent.ChildStarted.class).stream().filter(c -> c.kind().equals(kind)).toList();
    }

    /** The child runs of one kind that ended, in order. */
    static List<GraphEvent.ChildEnded> ended(List<GraphEvent> events, String kind) {
        return ofType(events, GraphEvent.ChildEnded.class).stream().filter(c -> c.kind().equals(kind)).toList();
    }

    /** The argument pieces of call {@code index}, joined as a client joins them. */
    static String joinedArguments(List<GraphEvent> events, int index) {
        return String.join("", ofType(events, GraphEvent.ToolCallChunk.class).stream().filter(c -> c.index() == index)
                .map(GraphEvent.ToolCallChunk::argsDelta).toList());
    }

    static String tokens(List<GraphEvent> events) {
        StringBuilder sb = new StringBuilder();
        events.stream().filter(e -> e instanceof GraphEvent.Token).forEach(e -> sb.append(((GraphEvent.Token) e).text()));
        return sb.toString();
    }
}
