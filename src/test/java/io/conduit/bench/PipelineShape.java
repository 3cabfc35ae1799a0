package io.conduit.bench;

import io.conduit.graph.Channels;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Identified;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.MessagesChannel;
import io.conduit.graph.Route;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The six-stage pipeline with instant nodes, exactly as the LangGraph.js peer harness (../shared/bench/langgraphjs)
 * builds it: ingress, planner (a tool call every other turn), tool_executor, verifier, generator (a 50-token
 * answer), summarizer; each turn appends a user, an AI and, on tool turns, an AI tool call and a tool message.
 */
final class PipelineShape {

    static final int TOKENS = 50;

    record ToolCall(String id, String name, Map<String, String> args) {
    }

    /** A chat message; ids are random UUIDs, as LangChain gives them. */
    record Msg(String id, String type, String content, List<ToolCall> toolCalls, String toolCallId) implements Identified {
        static Msg of(String type, String content) {
            return new Msg(UUID.randomUUID().toString(), type, content, List.of(), null);
        }
    }

    static final MessagesChannel<Msg> MESSAGES = Channels.messages("messages", Msg.class);
    static final LastValueChannel<String> PHASE = Channels.lastValue("phase", String.class, "");
    static final LastValueChannel<Integer> RETRY_COUNT = Channels.lastValue("retry_count", Integer.class, 0);
    static final LastValueChannel<Integer> TOKENS_USED = Channels.lastValue("tokens_used", Integer.class, 0);

    private static final String ANSWER = "tok ".repeat(TOKENS);

    private PipelineShape() {
    }

    static CompiledGraph compile(GraphOptions options) {
        AtomicLong toolTurn = new AtomicLong();
        return StateGraph.of(StateSchema.of(MESSAGES, PHASE, RETRY_COUNT, TOKENS_USED))
                .node("ingress", (s, ctx) -> Uni.createFrom().item(Update.of(PHASE, "plan")))
                .node("planner", (s, ctx) -> {
                    long turn = toolTurn.getAndIncrement();
                    if (turn % 2 == 0) {
                        ToolCall call = new ToolCall("c" + (turn + 1), "search", Map.of("q", "x"));
                        Msg ai = new Msg(UUID.randomUUID().toString(), "ai", "", List.of(call), null);
                        return Uni.createFrom().item(Update.of(PHASE, "execute").set(MESSAGES, ai));
                    }
                    return Uni.createFrom().item(Update.of(PHASE, "generate"));
                })
                .node("tool_executor", (s, ctx) -> {
                    Msg last = s.get(MESSAGES).last();
                    Update u = Update.of(PHASE, "verify");
                    for (ToolCall c : last.toolCalls()) {
                        u = u.set(MESSAGES, new Msg(UUID.randomUUID().toString(), "tool", "result", List.of(), c.id()));
                    }
                    return Uni.createFrom().item(u);
                })
                .node("verifier", (s, ctx) -> Uni.createFrom().item(Update.of(PHASE, "generate")))
                .node("generator", (s, ctx) -> Uni.createFrom().item(Update.of(PHASE, "summarize")
                        .set(MESSAGES, Msg.of("ai", ANSWER)).set(TOKENS_USED, s.get(TOKENS_USED) + TOKENS)))
                .node("summarizer", (s, ctx) -> Uni.createFrom().item(Update.of(PHASE, "done")))
                .edge(StateGraph.START, "ingress").edge("ingress", "planner")
                .route("planner", s -> Route.to("execute".equals(s.get(PHASE)) ? "tool_executor" : "generator"), "tool_executor", "generator")
                .edge("tool_executor", "verifier").edge("verifier", "generator")
                .edge("generator", "summarizer").edge("summarizer", StateGraph.END)
                .compile(options);
    }

    /** The user's message of turn {@code t}. */
    static Update input(int t) {
        return Update.of(MESSAGES, Msg.of("human", "hello " + t));
    }

    /** Characters of message text a turn adds, as the peer counts them: "hello t", the answer, "result" on tool turns. */
    static long textBytes(int turn, boolean toolTurn) {
        return ("hello " + turn).length() + ANSWER.length() + (toolTurn ? "result".length() : 0);
    }
}
