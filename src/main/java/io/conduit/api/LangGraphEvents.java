package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.StreamMode;
import io.conduit.runs.events.EventSeq;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.RunTranslator;
import io.conduit.runs.events.TextDelta;
import io.conduit.runs.wire.LangChainMessages;
import io.conduit.runs.wire.WireState;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Turns one run's engine events into the Agent Server's stream events, written to the thread's event log:
 * {@code values}, {@code updates}, {@code messages} (LangChain message chunks with their metadata), {@code custom},
 * and, when the run asked for them, {@code messages/metadata|partial|complete} (the {@code messages} mode),
 * {@code events} (astream_events v2), {@code tasks}, {@code checkpoints} and {@code debug}. One instance per run, fed in order.
 */
final class LangGraphEvents implements RunTranslator {

    private final Consumer<RunEvent> out;
    /** When the entry being translated was logged. */
    private long now;
    private final Run run;
    private final String graphId;
    private final Set<StreamMode> modes;
    /** Whether the run asked for astream_events ({@code events}): their payloads are built only then. */
    private final boolean events;
    /**
     * Whether the run asked for the {@code messages} mode: its events, each the whole message so far, are built only
     * then (a message of n chunks costs O(n²) bytes, as on LangGraph's servers).
     */
    private final boolean wholeMessages;
    private final PartialMessages partials = new PartialMessages();
    private final EventSeq seq;
    private final Set<String> streamedMessages = new HashSet<>();
    private String lastStreamed;
    private final Map<String, String> taskOfNode = new HashMap<>();
    /** The chat model call in flight per node ({@code ns/node}): its stream events carry the call's run id, as its start and end do. */
    private final Map<String, String> modelCallOfNode = new HashMap<>();
    private String lastCheckpoint;
    /** The frame of the message being streamed ({@link #tokenChunk}) and what it is for: the message, and its tokens' tag. */
    private RunEvent.TextFrame tokenFrame;
    private String frameMessage;
    private GraphEvent.Tag frameTag;

    LangGraphEvents(Consumer<RunEvent> out, RunNotice.Began began) {
        this.out = out;
        this.run = began.run();
        this.graphId = began.graphId();
        this.modes = began.modes();
        this.events = modes.contains(StreamMode.EVENTS);
        this.wholeMessages = modes.contains(StreamMode.MESSAGES);
        this.seq = new EventSeq(began.firstSeq());
    }

    @Override
    public void on(Object entry, long atMillis) {
        now = atMillis;
        switch (entry) {
            case GraphEvent e -> on(e);
            case RunNotice.Began b -> metadata();
            case RunNotice.Said said -> error(said.code(), said.message());
            case RunNotice.Ended end -> {
                if (end.classicEnd()) {
                    end();
                }
            }
            case RunNotice.Answered a -> {
                // the classic stream has no event for it
            }
            default -> throw new IllegalArgumentException("not a log entry: " + entry);
        }
    }

    private void metadata() {
        write("metadata", "", obj().put("run_id", run.runId()).put("attempt", 1));
    }

    private void error(String code, String message) {
        write("error", "", obj().put("error", code).put("message", message));
    }

    private void end() {
        write("end", "", null);
    }

    private void on(GraphEvent e) {
        GraphEvent.Tag tag = e.tag();
        String ns = ns(tag);
        if (e instanceof GraphEvent.RunStarted r) {
            lastCheckpoint = r.checkpointId();
            if (tag.ns().isEmpty()) {
                event("on_chain_start", "LangGraph", run.runId(), List.of(), tag, () -> obj().set("input", obj()));
            }
        } else if (e instanceof GraphEvent.TaskStarted t) {
            taskOfNode.put(tag.ns() + "/" + tag.node(), t.taskId());
            event("on_chain_start", tag.node(), t.taskId(), List.of(run.runId()), tag, () -> obj().set("input", obj()));
            if (modes.contains(StreamMode.TASKS) || modes.contains(StreamMode.DEBUG)) {
                ObjectNode task = obj().put("id", t.taskId()).put("name", tag.node());
                task.putObject("input");
                task.putArray("triggers").add("branch:to:" + tag.node());
                task.putArray("interrupts");
                optional(StreamMode.TASKS, ns, task);
                debug("task", tag, task);
            }
        } else if (e instanceof GraphEvent.TaskFinished t) {
            ObjectNode update = WireState.update(t.update());
            write("updates", ns, obj().set(tag.node(), update));
            for (Update.Write w : t.update().writes()) {
                if (w.value() instanceof ChatMessage m && !(m instanceof RemoveMessage)) {
                    if (!streamedMessages.contains(m.id())) {
                        write("messages", ns, tuple(LangChainMessages.toJson(m), tag));
                    }
                    complete(m, tag, ns);
                }
            }
            event("on_chain_end", tag.node(), t.taskId(), List.of(run.runId()), tag, () -> obj().set("output", update));
            if (modes.contains(StreamMode.TASKS) || modes.contains(StreamMode.DEBUG)) {
                ObjectNode result = obj().put("id", t.taskId()).put("name", tag.node());
                ArrayNode pairs = result.putArray("result");
                update.fields().forEachRemaining(f -> pairs.addArray().add(f.getKey()).add(f.getValue()));
                result.putNull("error");
                result.putArray("interrupts");
                optional(StreamMode.TASKS, ns, result);
                debug("task_result", tag, result);
            }
        } else if (e instanceof GraphEvent.Values v) {
            ObjectNode values = WireState.values(v.state());
            write("values", ns, values);
            // the state a resumed run starts from is no new checkpoint (RunStarted named it): values only, as LangGraph
            if ((modes.contains(StreamMode.CHECKPOINTS) || modes.contains(StreamMode.DEBUG)) && !v.start()) {
                ObjectNode cp = checkpoint(tag, v.checkpointId(), values);
                optional(StreamMode.CHECKPOINTS, ns, cp);
                debug("checkpoint", tag, cp);
            }
            lastCheckpoint = v.checkpointId();
        } else if (e instanceof GraphEvent.Token t) {
            streamed(t.messageId());
            out.accept(tokenChunk(t, ns));
            if (wholeMessages) {
                partial(t.messageId(), tag, ns, () -> partials.text(t.messageId(), t.text()));
            }
            if (events) {
                event("on_chat_model_stream", tag.node(), modelCall(tag, t.messageId()), List.of(run.runId()), tag,
                        () -> obj().set("chunk", LangChainMessages.textChunk(t.messageId(), t.text())));
            }
        } else if (e instanceof GraphEvent.Reasoning r) {
            reasoning(r, tag, ns);
        } else if (e instanceof GraphEvent.Custom c) {
            write("custom", ns, obj().put("name", c.name()).set("data", JsonCodec.MAPPER.valueToTree(c.payload())));
            // the payload itself is the data (written with the event: setting it afterwards would not reach the log)
            event("on_custom_event", c.name(), run.runId(), List.of(run.runId()), tag, () -> JsonCodec.MAPPER.valueToTree(c.payload()));
        } else if (e instanceof GraphEvent.Interrupted i) {
            List<Interrupt> raised = i.interrupts().stream().filter(Interrupt::answerable).toList();
            if (!raised.isEmpty()) {
                ArrayNode arr = WireJson.interrupts(raised);
                write("updates", ns, obj().set("__interrupt__", arr));
                write("values", ns, obj().set("__interrupt__", arr));
            }
        } else if (e instanceof GraphEvent.RunFinished f && tag.ns().isEmpty()) {
            event("on_chain_end", "LangGraph", run.runId(), List.of(), tag, () -> obj().set("output", WireState.values(f.state())));
        } else {
            more(e, tag, ns);
        }
    }

    /** Tool-call argument chunks, and the model and tool calls a node makes (astream_events' nested runs). */
    private void more(GraphEvent e, GraphEvent.Tag tag, String ns) {
        if (e instanceof GraphEvent.ToolCallChunk c) {
            streamed(c.messageId());
            ObjectNode chunk = LangChainMessages.toolCallChunk(c.messageId(), c.index(), c.callId(), c.name(), c.argsDelta());
            write("messages", ns, tuple(chunk, tag));
            if (wholeMessages) {
                partial(c.messageId(), tag, ns, () -> partials.toolCall(c.messageId(), c.index(), c.callId(), c.name(), c.argsDelta()));
            }
            event("on_chat_model_stream", tag.node(), modelCall(tag, c.messageId()), List.of(run.runId()), tag, () -> obj().set("chunk", chunk));
        } else if (e instanceof GraphEvent.ChildStarted c) {
            if (CHAT_MODEL.equals(c.kind())) {
                modelCallOfNode.put(tag.ns() + "/" + tag.node(), c.childId());
            }
            String kind = "tool".equals(c.kind()) ? "on_tool_start" : "on_" + c.kind() + "_start";
            event(kind, c.name(), c.childId(), List.of(run.runId()), tag, () -> obj().set("input", json(c.input())));
        } else if (e instanceof GraphEvent.ChildEnded c) {
            if (CHAT_MODEL.equals(c.kind())) {
                modelCallOfNode.remove(tag.ns() + "/" + tag.node(), c.childId());
            }
            String kind = "tool".equals(c.kind()) ? "on_tool_end" : "on_" + c.kind() + "_end";
            event(kind, c.name(), c.childId(), List.of(run.runId()), tag, () -> {
                Object out = c.output() instanceof ChatMessage m ? LangChainMessages.toJson(m) : c.output();
                ObjectNode data = obj().set("output", json(out));
                if (c.error() != null) {
                    data.put("error", c.error());
                }
                return data;
            });
        }
    }

    private static final String CHAT_MODEL = "chat_model";
    /** The custom event that carried reasoning before it had an event of its own; kept for the clients that read it. */
    static final String REASONING = "reasoning";

    /**
     * Reasoning goes with its message in {@code messages} (a chunk with {@code additional_kwargs.reasoning_content}, as
     * LangChain streams a reasoning model), and as the {@code reasoning} custom event {@code {message_id, text}} it has
     * always been. Not a text frame: a slow subscriber's outbox must not merge it into the answer's text.
     */
    private void reasoning(GraphEvent.Reasoning r, GraphEvent.Tag tag, String ns) {
        streamed(r.messageId());
        ObjectNode chunk = LangChainMessages.reasoningChunk(r.messageId(), r.text());
        write("messages", ns, tuple(chunk, tag));
        if (wholeMessages) {
            partial(r.messageId(), tag, ns, () -> partials.reasoning(r.messageId(), r.text()));
        }
        event("on_chat_model_stream", tag.node(), modelCall(tag, r.messageId()), List.of(run.runId()), tag, () -> obj().set("chunk", chunk));
        Map<String, Object> payload = Map.of("message_id", r.messageId(), "text", r.text());
        write("custom", ns, obj().put("name", REASONING).set("data", JsonCodec.MAPPER.valueToTree(payload)));
        event("on_custom_event", REASONING, run.runId(), List.of(run.runId()), tag, () -> JsonCodec.MAPPER.valueToTree(payload));
    }

    /**
     * The {@code messages} mode's events for a chunk: the message's {@code messages/metadata} ({@code {id: {metadata}}},
     * the tuple's metadata) when it first shows, then {@code messages/partial} with the message so far.
     */
    private void partial(String messageId, GraphEvent.Tag tag, String ns, Runnable add) {
        if (partials.start(messageId)) {
            write("messages/metadata", ns, obj().set(messageId, obj().set("metadata", metadata(tag))));
        }
        add.run();
        write("messages/partial", ns, JsonCodec.MAPPER.createArrayNode().add(partials.json(messageId)));
    }

    /**
     * A message a node wrote, whole, as {@code messages/complete}: after its partials if it was streamed, else after its
     * {@code messages/metadata} (LangGraph's servers send it for every new message of the run's state).
     */
    private void complete(ChatMessage m, GraphEvent.Tag tag, String ns) {
        if (!wholeMessages) {
            return;
        }
        if (!partials.streaming(m.id())) {
            write("messages/metadata", ns, obj().set(m.id(), obj().set("metadata", metadata(tag))));
        }
        partials.done(m.id());
        write("messages/complete", ns, JsonCodec.MAPPER.createArrayNode().add(LangChainMessages.toJson(m)));
    }

    /** The run id of the chat model call a chunk belongs to (so start, stream and end share it); the message id outside one. */
    private String modelCall(GraphEvent.Tag tag, String messageId) {
        return modelCallOfNode.getOrDefault(tag.ns() + "/" + tag.node(), messageId);
    }

    private static JsonNode json(Object o) {
        if (o instanceof JsonNode n) {
            return n;
        }
        if (o instanceof java.util.List<?> l && !l.isEmpty() && l.get(0) instanceof ChatMessage) {
            ArrayNode arr = JsonCodec.MAPPER.createArrayNode();
            l.forEach(m -> arr.add(LangChainMessages.toJson((ChatMessage) m)));
            return arr;
        }
        return JsonCodec.MAPPER.valueToTree(o);
    }

    private ArrayNode tuple(ObjectNode message, GraphEvent.Tag tag) {
        ArrayNode t = JsonCodec.MAPPER.createArrayNode();
        t.add(message);
        t.add(metadata(tag));
        return t;
    }

    private ObjectNode metadata(GraphEvent.Tag tag) {
        String task = taskOfNode.getOrDefault(tag.ns() + "/" + tag.node(), "");
        String cpNs = tag.node() == null ? tag.ns() : (tag.ns().isEmpty() ? "" : tag.ns() + "|") + tag.node() + ":" + task;
        ObjectNode m = obj();
        m.put("graph_id", graphId).put("assistant_id", run.assistantId()).put("thread_id", run.threadId())
                .put("run_id", run.runId()).put("run_attempt", 1);
        if (tag.node() != null) {
            m.put("langgraph_step", tag.step()).put("langgraph_node", tag.node());
            m.putArray("langgraph_triggers").add("branch:to:" + tag.node());
            m.putArray("langgraph_path").add("__pregel_pull").add(tag.node());
            m.put("langgraph_checkpoint_ns", cpNs).put("checkpoint_ns", cpNs);
        }
        m.putArray("tags");
        return m;
    }

    /** An astream_events v2 event, when the run asked for them; {@code data} is only built then. */
    private void event(String name, String who, String id, List<String> parents, GraphEvent.Tag tag, Supplier<JsonNode> data) {
        if (!events) {
            return;
        }
        ObjectNode ev = obj().put("event", name).put("name", who).put("run_id", id);
        ev.putArray("tags");
        ev.set("metadata", metadata(tag));
        ArrayNode p = ev.putArray("parent_ids");
        parents.forEach(p::add);
        JsonNode d = data.get();
        if (d != null) {
            ev.set("data", d);
        }
        write("events", ns(tag), ev);
    }

    private ObjectNode checkpoint(GraphEvent.Tag tag, String checkpointId, ObjectNode values) {
        ObjectNode cp = obj();
        cp.set("config", config(checkpointId, tag.ns()));
        cp.set("parent_config", lastCheckpoint == null ? null : config(lastCheckpoint, tag.ns()));
        cp.set("values", values);
        cp.putObject("metadata").put("source", "loop").put("step", tag.step());
        cp.putArray("next");
        cp.putArray("tasks");
        return cp;
    }

    private ObjectNode config(String checkpointId, String ns) {
        ObjectNode c = obj();
        c.putObject("configurable").put("thread_id", run.threadId()).put("checkpoint_ns", ns).put("checkpoint_id", checkpointId);
        return c;
    }

    private void debug(String type, GraphEvent.Tag tag, ObjectNode payload) {
        if (modes.contains(StreamMode.DEBUG)) {
            write("debug", ns(tag), obj().put("type", type).put("step", tag.step())
                    .put("timestamp", java.time.Instant.ofEpochMilli(now).toString()).set("payload", payload));
        }
    }

    private void optional(StreamMode mode, String ns, JsonNode data) {
        if (modes.contains(mode)) {
            write(mode.wire(), ns, data);
        }
    }

    private void write(String mode, String ns, JsonNode data) {
        out.accept(new RunEvent(seq.next(), run.runId(), mode, ns, data == null ? "null" : data.toString()));
    }

    /**
     * A token's {@code messages} event: the message chunk and its metadata around the text. The frame is the same for
     * every token of a message (same node, step and task), so it is serialized once, with {@link RunEvent#TEXT_SLOT}
     * where the text goes, and each token only escapes its text: building and writing a JSON tree per token cost six
     * times the protocol's events. The text's place ({@link TextDelta}, keyed by the message id) lets a slow
     * subscriber's outbox merge consecutive chunks of one message.
     */
    private RunEvent tokenChunk(GraphEvent.Token t, String ns) {
        GraphEvent.Tag tag = t.tag();
        // the tag holds what the frame's metadata is made of (namespace, node, step, task)
        if (tokenFrame == null || !t.messageId().equals(frameMessage) || !tag.equals(frameTag)) {
            // ids and names in the frame are plain ASCII (InputText.isId): the slot can only be the content's
            tokenFrame = RunEvent.TextFrame.cut(tuple(LangChainMessages.textChunk(t.messageId(), RunEvent.TEXT_SLOT), tag).toString());
            frameMessage = t.messageId();
            frameTag = tag;
        }
        return RunEvent.withText(seq.next(), run.runId(), "messages", ns, t.messageId(), tokenFrame, t.text());
    }

    /** Notes that a message went out in chunks (its whole form is then not sent again); once per message, not per token. */
    private void streamed(String messageId) {
        if (!messageId.equals(lastStreamed)) {
            streamedMessages.add(messageId);
            lastStreamed = messageId;
        }
    }

    /** The SSE namespace of a subgraph event: its checkpoint namespace ({@code node:task} segments). */
    private static String ns(GraphEvent.Tag tag) {
        return tag.ns();
    }

    private static ObjectNode obj() {
        return JsonCodec.MAPPER.createObjectNode();
    }
}
