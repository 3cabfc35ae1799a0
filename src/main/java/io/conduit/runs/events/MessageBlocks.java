package io.conduit.runs.events;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Update;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A run's AI messages as content blocks, per namespace {@code N} (a task's; a graph's for what streams outside a task),
 * in the shape the thread protocol streams them and other formats (AG-UI) read them: a message starts with its first
 * chunk, the message open before in its namespace finishing first; its text, its reasoning and each of its tool calls
 * are blocks that never interleave (a chunk of another block finishes the open one); a message its task wrote without
 * streaming it (a refusal, a scripted answer) comes whole at the task's end. It keeps the state, its {@link Sink} writes
 * each format's frames, so that every format sees the same messages. Not thread-safe: one translator's.
 */
public final class MessageBlocks<N> {

    private static final String CHAT_MODEL = "chat_model";

    public enum Kind { TEXT, REASONING, TOOL_CALL }

    /** What happens to the messages, in order. */
    public interface Sink<N> {

        void messageStarted(N ns, String messageId);

        void blockStarted(N ns, Block block);

        /** A piece of the block's text (a tool call's: of its arguments), already added to {@link Block#text()}. */
        void delta(N ns, Block block, String text);

        /** {@code done}: the message as its model call ended it, when known (its tool calls whole); else null. */
        void blockFinished(N ns, Block block, AssistantMessage done);

        /** {@code toolCalls}: whether it asks for tools. */
        void messageFinished(N ns, String messageId, boolean toolCalls, AssistantMessage done);

        /** It ends unfinished (its model call failed, its task stopped) with {@code open}, its block still open, or null. */
        void messageFailed(N ns, String messageId, Block open, String error);
    }

    /** One block of a message: its place in the message and, for a tool call, the call. */
    public static final class Block {
        private final String messageId;
        private final int index;
        private final Kind kind;
        private final int call;
        private final String callId;
        private final String name;
        private final String key;
        private final StringBuilder text = new StringBuilder();

        private Block(String messageId, int index, Kind kind, int call, String callId, String name) {
            this.messageId = messageId;
            this.key = messageId + '#' + index;
            this.index = index;
            this.kind = kind;
            this.call = call;
            this.callId = callId;
            this.name = name;
        }

        public String messageId() {
            return messageId;
        }

        /** Its index in the message. */
        public int index() {
            return index;
        }

        public Kind kind() {
            return kind;
        }

        /** A tool call's index in the message's calls; -1 for text and reasoning. */
        public int call() {
            return call;
        }

        /** A tool call's id and name as its first chunk gave them (may be null). */
        public String callId() {
            return callId;
        }

        public String name() {
            return name;
        }

        /** Names the block's deltas, which a slow subscriber's outbox may merge ({@link TextDelta#key()}). */
        public String key() {
            return key;
        }

        /** What streamed of it so far. */
        public String text() {
            return text.toString();
        }
    }

    /** A message being streamed: its blocks so far, the open one, and the tool calls already finished. */
    private static final class Message {
        final String id;
        int blocks;
        Block block;
        boolean toolCalls;
        Set<Integer> finishedCalls;

        Message(String id) {
            this.id = id;
        }
    }

    private final Sink<N> sink;
    private final Map<N, Message> open = new HashMap<>();
    private final Set<String> streamed = new HashSet<>();

    public MessageBlocks(Sink<N> sink) {
        this.sink = sink;
    }

    /** Whether a child run of this kind is a model call, whose end ends its message ({@link #modelEnded}). */
    public static boolean modelCall(String kind) {
        return CHAT_MODEL.equals(kind);
    }

    public void text(N ns, String messageId, String text) {
        append(ns, messageId, Kind.TEXT, text);
    }

    public void reasoning(N ns, String messageId, String text) {
        append(ns, messageId, Kind.REASONING, text);
    }

    public void toolCallChunk(N ns, GraphEvent.ToolCallChunk c) {
        toolCallChunk(ns, c.messageId(), c.index(), c.callId(), c.name(), c.argsDelta());
    }

    /** A model call ended: the open message finishes (with the call's output when it is that message), or fails with it. */
    public void modelEnded(N ns, GraphEvent.ChildEnded c) {
        Message m = open.get(ns);
        if (m == null) {
            return;
        }
        if (c.error() != null) {
            fail(ns, m, c.error());
        } else {
            finish(ns, m, c.output() instanceof AssistantMessage a && a.id().equals(m.id) ? a : null);
        }
    }

    /** The namespace's task finished: its open message finishes, and the AI messages it wrote unstreamed come whole. */
    public void taskFinished(N ns, Update update) {
        Message m = open.get(ns);
        if (m != null) {
            finish(ns, m, null);
        }
        for (Update.Write w : update.writes()) {
            if (w.value() instanceof AssistantMessage a && !streamed.contains(a.id())) {
                whole(ns, a);
            }
        }
    }

    /** The namespace's task stopped (it failed, was interrupted, or the run ended): its open message fails. */
    public void taskStopped(N ns, String error) {
        Message m = open.get(ns);
        if (m != null) {
            fail(ns, m, error);
        }
    }

    /** The open block (or null) of each message still open, for a format that closes them at the run's end. */
    public void forEachOpen(BiConsumer<N, Block> action) {
        open.forEach((ns, m) -> action.accept(ns, m.block));
    }

    private void append(N ns, String messageId, Kind kind, String text) {
        Message m = message(ns, messageId);
        Block b = block(ns, m, kind, -1, null, null);
        b.text.append(text);
        sink.delta(ns, b, text);
    }

    private void toolCallChunk(N ns, String messageId, int index, String callId, String name, String args) {
        Message m = message(ns, messageId);
        m.toolCalls = true;
        if (m.finishedCalls != null && m.finishedCalls.contains(index)) {
            return; // the rest of a call whose block another call's closed: the message in state has it whole
        }
        Block b = block(ns, m, Kind.TOOL_CALL, index, callId, name);
        if (args == null || args.isEmpty()) {
            return;
        }
        b.text.append(args);
        sink.delta(ns, b, args);
    }

    /** The message open in the namespace, started if it is another one (the one open before finishes first). */
    private Message message(N ns, String id) {
        Message m = open.get(ns);
        if (m != null && m.id.equals(id)) {
            return m;
        }
        if (m != null) {
            finish(ns, m, null);
        }
        m = new Message(id);
        open.put(ns, m);
        streamed.add(id);
        sink.messageStarted(ns, id);
        return m;
    }

    /** The message's open block if it is this one, else a new one (the open one finishes first: blocks never interleave). */
    private Block block(N ns, Message m, Kind kind, int call, String callId, String name) {
        Block b = m.block;
        if (b != null && b.kind == kind && b.call == call) {
            return b;
        }
        if (b != null) {
            finishBlock(ns, m, null);
        }
        b = new Block(m.id, m.blocks++, kind, call, callId, name);
        m.block = b;
        sink.blockStarted(ns, b);
        return b;
    }

    private void finishBlock(N ns, Message m, AssistantMessage done) {
        Block b = m.block;
        m.block = null;
        if (b.kind == Kind.TOOL_CALL) {
            if (m.finishedCalls == null) {
                m.finishedCalls = new HashSet<>();
            }
            m.finishedCalls.add(b.call);
        }
        sink.blockFinished(ns, b, done);
    }

    private void finish(N ns, Message m, AssistantMessage done) {
        if (m.block != null) {
            finishBlock(ns, m, done);
        }
        open.remove(ns);
        sink.messageFinished(ns, m.id, done != null ? done.hasToolCalls() : m.toolCalls, done);
    }

    private void fail(N ns, Message m, String error) {
        open.remove(ns);
        sink.messageFailed(ns, m.id, m.block, error);
    }

    /** An AI message written without being streamed: all of it at once. */
    private void whole(N ns, AssistantMessage m) {
        if (m.content() != null && !m.content().isEmpty()) {
            append(ns, m.id(), Kind.TEXT, m.content());
        }
        for (int i = 0; i < m.toolCalls().size(); i++) {
            ToolCall c = m.toolCalls().get(i);
            toolCallChunk(ns, m.id(), i, c.id(), c.name(), c.arguments());
        }
        Message current = open.get(ns);
        if (current == null || !current.id.equals(m.id())) {
            current = message(ns, m.id()); // nothing to show: still a message, so clients learn its id
        }
        finish(ns, current, m);
    }
}
