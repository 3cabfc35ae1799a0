package io.conduit.agui;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.TokenUsage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent.Tag;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.RunRequest;
import io.conduit.graph.State;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.events.RunNotice;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs written by hand as the worker logs them (its {@link RunNotice}s and the engine's events, in order), one per
 * way a run can go: what AG-UI's translation is checked on, entry by entry.
 */
final class ScriptedRuns {

    static final String THREAD = "t-1";
    static final String RUN = "r-1";

    /** A run's entries, in the order they are logged; its segment is closed after the last. */
    record Script(String name, List<Object> entries) {
    }

    private static final LastValueChannel<String> PHASE = Channels.lastValue("phase", String.class, null);
    private static final LastValueChannel<String> SUMMARY = Channels.lastValue("summary", String.class, null);
    private static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES, PHASE, SUMMARY);

    private ScriptedRuns() {
    }

    static List<Script> all() {
        return List.of(chatTurn(), toolTurn(), unstreamedMessages(), subgraphAndParallelTasks(), interrupt(), cancelled(), failed(),
                modelErrorThenTimeout(), failedBeforeTheGraph(), stoppedBeforeStart(), stoppedThenEnded(), stoppedWithoutAWord(),
                neverBegan());
    }

    static Run run() {
        return new Run(RUN, THREAD, "a-1", RunStatus.RUNNING, Map.of(), MultitaskStrategy.REJECT, RunSpec.NONE, Instant.EPOCH, Instant.EPOCH,
                Instant.EPOCH, null);
    }

    static RunNotice.Began began(boolean executed) {
        return new RunNotice.Began(1 << 24, run(), "agent", Set.of(), executed);
    }

    static Tag root(int step) {
        return new Tag(RUN, THREAD, "", null, step);
    }

    private static Tag task(String ns, String node, String taskId) {
        return new Tag(RUN, THREAD, ns, node, 1, taskId);
    }

    static Tag task(String node, String taskId) {
        return task("", node, taskId);
    }

    /** A state holding these messages and a phase, as a run of a one-node graph leaves it. */
    static State state(String phase, ChatMessage... messages) {
        CompiledGraph g = StateGraph.of(SCHEMA).node("a", (s, ctx) -> {
            Update u = Update.none().set(PHASE, phase);
            for (ChatMessage m : messages) {
                u = u.set(AgentState.MESSAGES, m);
            }
            return Uni.createFrom().item(u);
        }).edge(StateGraph.START, "a").edge("a", StateGraph.END).compile();
        return g.invoke(RunRequest.on("state-" + System.nanoTime()).input(Update.none())).await().indefinitely().state();
    }

    private static List<Object> entries(Object... entries) {
        return new ArrayList<>(Arrays.asList(entries));
    }

    private static RunNotice.Ended ended(RunStatus status, String error) {
        return new RunNotice.Ended(status, error, status == RunStatus.SUCCESS);
    }

    /** Reasoning, then text that needs escaping, the message whole in state; a subgraph's values are not the run's. */
    static Script chatTurn() {
        Tag gen = task("generator", "task-g");
        AssistantMessage answer = new AssistantMessage("msg-1", "Hello \"you\" \\ \n\t\u0001 \u2028 é 😀 </script>", List.of(), "Let me think.",
                "generator", new TokenUsage(12, 3));
        return new Script("chat-turn", entries(began(true), new RunNotice.Answered(List.of()),
                new GraphEvent.RunStarted(root(-1), "cp-0"),
                new GraphEvent.TaskStarted(gen, "task-g"),
                new GraphEvent.ChildStarted(gen, "child-1", "chat_model", "generator", Map.of()),
                new GraphEvent.Reasoning(gen, "msg-1", "Let me "),
                new GraphEvent.Reasoning(gen, "msg-1", "think."),
                new GraphEvent.Token(gen, "msg-1", "Hello \"you\" \\ \n"),
                new GraphEvent.Token(gen, "msg-1", ""),
                new GraphEvent.Token(gen, "msg-1", "\t\u0001 \u2028 é 😀 </script>"),
                new GraphEvent.ChildEnded(gen, "child-1", "chat_model", "generator", answer, null),
                new GraphEvent.TaskFinished(gen, "task-g", Update.of(AgentState.MESSAGES, answer)),
                new GraphEvent.Values(new Tag(RUN, THREAD, "sub:1", null, 1), state("inner"), "cp-s"),
                new GraphEvent.Values(root(1), state("answer", new UserMessage("u-1", "hi"), new SystemMessage("s-1", "be brief"), answer), "cp-1"),
                new GraphEvent.RunFinished(root(1), state("answer"), "cp-1"),
                ended(RunStatus.SUCCESS, null),
                new GraphEvent.Token(gen, "msg-1", "late")));
    }

    /** Text and two streamed tool calls, their tools run as parallel tasks of one node, their results told. */
    static Script toolTurn() {
        Tag planner = task("planner", "task-p");
        Tag toolA = task("tool_executor", "task-a");
        Tag toolB = task("tool_executor", "task-b");
        AssistantMessage plan = new AssistantMessage("msg-p", "Let me look.", List.of(new ToolCall("call-1", "search", "{\"q\":\"paris\"}"),
                new ToolCall("call-2", "clock", "{}")), null, "planner");
        ToolMessage found = new ToolMessage("tm-1", "call-1", "search", "Paris is in France.", false);
        ToolMessage clock = new ToolMessage("tm-2", "call-2", "clock", "no clock", true);
        ToolMessage unasked = new ToolMessage("tm-3", "call-9", "other", "not streamed here", false);
        return new Script("tool-turn", entries(began(true),
                new GraphEvent.TaskStarted(planner, "task-p"),
                new GraphEvent.Token(planner, "msg-p", "Let me look."),
                new GraphEvent.ToolCallChunk(planner, "msg-p", 0, "call-1", "search", "{\"q\":"),
                new GraphEvent.ToolCallChunk(planner, "msg-p", 0, null, null, "\"paris\"}"),
                new GraphEvent.ToolCallChunk(planner, "msg-p", 1, "call-2", "clock", "{}"),
                new GraphEvent.ToolCallChunk(planner, "msg-p", 1, null, null, ""),
                new GraphEvent.ChildEnded(planner, "child-p", "chat_model", "planner", plan, null),
                new GraphEvent.TaskFinished(planner, "task-p", Update.of(AgentState.MESSAGES, plan)),
                new GraphEvent.Values(root(1), state("plan", new UserMessage("u-1", "where is paris?"), plan), "cp-1"),
                new GraphEvent.TaskStarted(toolA, "task-a"),
                new GraphEvent.TaskStarted(toolB, "task-b"),
                new GraphEvent.ChildStarted(toolA, "child-a", "tool", "search", Map.of("q", "paris"), "call-1"),
                new GraphEvent.ChildStarted(toolB, "child-b", "tool", "clock", Map.of(), "call-2"),
                new GraphEvent.ChildEnded(toolB, "child-b", "tool", "clock", null, "no clock"),
                new GraphEvent.ChildEnded(toolA, "child-a", "tool", "search", "Paris is in France.", null),
                new GraphEvent.TaskFinished(toolA, "task-a", Update.of(AgentState.MESSAGES, found)),
                new GraphEvent.TaskFinished(toolB, "task-b", Update.of(AgentState.MESSAGES, clock).set(AgentState.MESSAGES, unasked)
                        .set(PHASE, "tools")),
                new GraphEvent.Values(root(2), state("tools", new UserMessage("u-1", "where is paris?"), plan, found, clock, unasked), "cp-2"),
                ended(RunStatus.SUCCESS, null)));
    }

    /** AI messages written without streaming come whole; custom events of every shape; no values, so no snapshots. */
    static Script unstreamedMessages() {
        Tag refuser = task("refuser", "task-r");
        Tag speaker = task("speaker", "task-s");
        AssistantMessage refusal = new AssistantMessage("msg-w", "I can't help with that.", List.of(new ToolCall(null, "lookup", "{bad json"),
                new ToolCall("call-n", null, "")), null, "refuser");
        AssistantMessage empty = new AssistantMessage("msg-e", "", List.of(), null, null);
        AssistantMessage spoken = new AssistantMessage("msg-s", "Spoken.", List.of(), null, "speaker");
        return new Script("unstreamed", entries(began(true),
                new GraphEvent.TaskStarted(refuser, "task-r"),
                new GraphEvent.Custom(refuser, "progress", Map.of("step", 1)),
                new GraphEvent.TaskFinished(refuser, "task-r", Update.of(AgentState.MESSAGES, refusal).set(AgentState.MESSAGES, empty)),
                new GraphEvent.TaskStarted(speaker, "task-s"),
                new GraphEvent.Token(speaker, "msg-s", "Spoken."),
                new GraphEvent.TaskFinished(speaker, "task-s", Update.of(AgentState.MESSAGES, spoken)),
                new GraphEvent.Custom(root(2), null, null),
                new GraphEvent.Custom(root(2), "", "a text payload"),
                new GraphEvent.Custom(task("sub:1", "inner", "task-i"), "nested", List.of(1, 2.5, true)),
                ended(RunStatus.SUCCESS, null)));
    }

    /**
     * Two tasks of one node streaming at once, each its own message; a subgraph's task; a message streamed outside any
     * task, still open when the run ends.
     */
    static Script subgraphAndParallelTasks() {
        Tag a = task("writer", "task-1");
        Tag b = task("writer", "task-2");
        Tag inner = task("outer:task-o", "inner", "task-in");
        Tag loose = new Tag(RUN, THREAD, "", null, 1);
        return new Script("subgraph-and-parallel", entries(began(true),
                new GraphEvent.TaskStarted(a, "task-1"),
                new GraphEvent.TaskStarted(b, "task-2"),
                new GraphEvent.Token(a, "msg-a", "from a "),
                new GraphEvent.Token(b, "msg-b", "from b "),
                new GraphEvent.Token(a, "msg-a", "again"),
                new GraphEvent.Reasoning(b, "msg-b", "now reasoning"),
                new GraphEvent.Token(a, "msg-a2", "a's second message"),
                new GraphEvent.TaskFinished(a, "task-1", Update.none()),
                new GraphEvent.TaskFinished(b, "task-2", Update.none()),
                new GraphEvent.TaskStarted(inner, "task-in"),
                new GraphEvent.Token(inner, "msg-in", "inside"),
                new GraphEvent.TaskFinished(inner, "task-in", Update.none()),
                new GraphEvent.Token(loose, "msg-l", "loose"),
                new GraphEvent.Values(root(2), state("done", new AssistantMessage("msg-a", "from a again", List.of(), null, "writer")), "cp-2"),
                ended(RunStatus.SUCCESS, null)));
    }

    /** A resume that asks again: the open message and task close, the questions are the outcome (not a breakpoint). */
    static Script interrupt() {
        Tag verifier = task("verifier", "task-v");
        Map<String, Object> asked = new LinkedHashMap<>(); // in order: the payload's JSON keeps it
        asked.put("question", "Which cat?");
        asked.put("choices", Arrays.asList("a", null));
        return new Script("interrupt", entries(began(true), new RunNotice.Answered(List.of("old#0")),
                new GraphEvent.TaskStarted(verifier, "task-v"),
                new GraphEvent.Token(verifier, "msg-v", "Checking"),
                new GraphEvent.Values(root(1), state("verify", new UserMessage("u-1", "go")), "cp-1"),
                new GraphEvent.Interrupted(root(2), List.of(
                        new Interrupt("task-v#0", asked, "verifier", "task-v", Interrupt.When.DURING),
                        new Interrupt("task-v#1", "Plain question?", "verifier", "task-v", Interrupt.When.DURING),
                        new Interrupt("task-v#2", null, "verifier", "task-v", Interrupt.When.DURING),
                        new Interrupt("bp", Map.of("question", "a breakpoint"), "verifier", null, Interrupt.When.BEFORE)), "cp-2"),
                ended(RunStatus.INTERRUPTED, null)));
    }

    /** Stopped mid-answer: the open task fails, its blocks close, the outcome is cancelled; nothing comes after. */
    static Script cancelled() {
        Tag gen = task("generator", "task-g");
        return new Script("cancelled", entries(began(true),
                new GraphEvent.Values(root(0), state("start", new UserMessage("u-1", "tell me")), "cp-0"),
                new GraphEvent.TaskStarted(gen, "task-g"),
                new GraphEvent.ToolCallChunk(gen, "msg-g", 0, "call-1", "search", "{"),
                new GraphEvent.Token(gen, "msg-g", "Hel"),
                ended(RunStatus.INTERRUPTED, null),
                new GraphEvent.Token(gen, "msg-g", "lo"),
                new GraphEvent.TaskFinished(gen, "task-g", Update.none())));
    }

    /** A node fails with a reasoning block open: its task fails, then the run ends with RUN_ERROR. */
    static Script failed() {
        Tag planner = task("planner", "task-p");
        return new Script("failed", entries(began(true),
                new GraphEvent.TaskStarted(planner, "task-p"),
                new GraphEvent.Reasoning(planner, "msg-p", "hmm"),
                new GraphEvent.RunFailed(root(1), "node_failed", "boom"),
                new RunNotice.Said("node_failed", "boom"),
                ended(RunStatus.ERROR, "node_failed: boom")));
    }

    /** A model call that fails mid-message, then one whose output is another message; the run times out. */
    static Script modelErrorThenTimeout() {
        Tag gen = task("generator", "task-g");
        return new Script("model-error-then-timeout", entries(began(true),
                new GraphEvent.TaskStarted(gen, "task-g"),
                new GraphEvent.Token(gen, "msg-1", "Partial"),
                new GraphEvent.ChildEnded(gen, "child-1", "chat_model", "generator", null, "rate limited"),
                new GraphEvent.ChildEnded(gen, "child-1b", "chat_model", "generator", null, null),
                new GraphEvent.ToolCallChunk(gen, "msg-2", 0, null, null, "{\"x\":1}"),
                new GraphEvent.ChildEnded(gen, "child-2", "chat_model", "generator", new AssistantMessage("msg-other", "other", List.of(), null, null), null),
                new GraphEvent.Token(gen, "msg-3", "Still going"),
                new RunNotice.Said("TimeoutError", "the run took longer than 1 s (conduit.runs.timeout)"),
                ended(RunStatus.TIMEOUT, "TimeoutError: the run took longer than 1 s (conduit.runs.timeout)")));
    }

    /** Its graph is not registered here: it fails before any task. */
    static Script failedBeforeTheGraph() {
        return new Script("failed-before-graph", entries(began(true),
                new RunNotice.Said("GraphNotFound", "the run's graph is not registered here"),
                ended(RunStatus.ERROR, "GraphNotFound: the run's graph is not registered here")));
    }

    /** Stopped before it started (a newer run's interrupt): only its start, unexecuted, and why. */
    static Script stoppedBeforeStart() {
        return new Script("stopped-before-start", entries(began(false),
                new RunNotice.Said("run_interrupted", "the run was stopped by run r-2 (multitask_strategy interrupt)")));
    }

    /** Stopped while its first write waited for the store: why, then its recorded end. */
    static Script stoppedThenEnded() {
        return new Script("stopped-then-ended", entries(began(false),
                new RunNotice.Said("run_cancelled", "the run was cancelled"),
                new RunNotice.Ended(RunStatus.INTERRUPTED, null, false)));
    }

    /** Ended before it began with nothing said. */
    static Script stoppedWithoutAWord() {
        return new Script("stopped-without-a-word", entries(began(false), new RunNotice.Ended(RunStatus.INTERRUPTED, null, false)));
    }

    /** Its segment closed before it had event numbers. */
    static Script neverBegan() {
        return new Script("never-began", entries());
    }
}
