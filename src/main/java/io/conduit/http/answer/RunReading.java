package io.conduit.http.answer;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.Interrupt;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.RunTranslator;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What a door that answers with a run's text (chat completions, MCP) tells of a run, translated from its log entries,
 * root graph only: the text of the AI messages it writes (streamed or whole, several joined by a blank line), their reasoning, the question of an interrupt
 * it stops at (as text: the client's next message answers it), and how it ended, with the tokens its model calls used
 * ({@link TokenCount}). Tool calls and tool results are not read: the tools are the server's, not the client's.
 *
 * <p>Its frames are pieces of the answer, framed per door (the chat completions' chunks, {@link WholeAnswer}: a model
 * name and a time are the request's): {@link #TEXT} and {@link #REASONING} carry their text JSON-escaped (a text
 * frame, which a slow client's outbox merges with the next of the same message), {@link #END} the usage as JSON, and
 * {@link #FAILED} why the run failed. Deterministic, so a replay gives the same pieces.
 */
public final class RunReading implements RunTranslator {

    public static final String TEXT = "text";
    public static final String REASONING = "reasoning";
    /** The run finished (or was stopped without a word); data: its usage, {@code {prompt_tokens, ...}}. */
    public static final String END = "end";
    /** The run failed; data: why, as text. */
    public static final String FAILED = "error";

    private final String runId;
    private final Consumer<RunEvent> sink;
    private long seq;
    private final TokenCount tokens = new TokenCount();
    /** The messages that streamed (anywhere): written whole by their node, they are not read again. */
    private final Set<String> streamed = new HashSet<>();
    private String lastStreamed;
    private String textMessage;
    private boolean anyText;
    private boolean ended;

    public RunReading(RunNotice.Began began, Consumer<RunEvent> sink) {
        this.runId = began.run().runId();
        this.seq = began.firstSeq();
        this.sink = sink;
    }

    @Override
    public void on(Object entry, long atMillis) {
        if (ended) {
            return;
        }
        switch (entry) {
            case GraphEvent e -> on(e);
            case RunNotice.Said said -> failed(said.code(), said.message());
            case RunNotice.Ended end -> end(); // not said to have failed: it finished, or stopped without a word
            default -> {
                // Began, Answered: nothing to tell
            }
        }
    }

    private void on(GraphEvent e) {
        switch (e) {
            case GraphEvent.Token t -> {
                streamed(t.messageId());
                if (root(t)) {
                    text(t.messageId(), t.text());
                }
            }
            case GraphEvent.Reasoning r -> {
                streamed(r.messageId());
                if (root(r)) {
                    reasoning(r.text());
                }
            }
            case GraphEvent.ToolCallChunk c -> streamed(c.messageId());
            case GraphEvent.TaskFinished t when root(t) -> taskFinished(t.update());
            case GraphEvent.Interrupted i when root(i) -> {
                for (Interrupt x : i.interrupts()) {
                    if (x.answerable()) {
                        text("interrupt:" + x.id(), InterruptText.of(JsonCodec.MAPPER.valueToTree(x.value())));
                    }
                }
            }
            default -> {
            }
        }
    }

    /** A node's update: the tokens it adds, and the AI messages it wrote without streaming them. */
    private void taskFinished(Update update) {
        tokens.add(update);
        for (Update.Write w : update.writes()) {
            if (w.value() instanceof AssistantMessage m && !streamed.contains(m.id())) {
                if (m.reasoning() != null) {
                    reasoning(m.reasoning());
                }
                if (m.content() != null) {
                    text(m.id(), m.content());
                }
            }
        }
    }

    /** Text of a message: a blank line first when another message's text came before. */
    private void text(String messageId, String text) {
        if (text.isEmpty()) {
            return;
        }
        String joined = anyText && !messageId.equals(textMessage) ? "\n\n" + text : text;
        textMessage = messageId;
        anyText = true;
        sink.accept(RunEvent.withText(seq++, runId, TEXT, "", messageId, "", joined, ""));
    }

    private void reasoning(String text) {
        if (!text.isEmpty()) {
            sink.accept(RunEvent.withText(seq++, runId, REASONING, "", "reasoning", "", text, ""));
        }
    }

    private void failed(String code, String message) {
        String why = message == null ? "the run failed" : message;
        ended = true;
        sink.accept(new RunEvent(seq++, runId, FAILED, "", code == null || code.isEmpty() ? why : code + ": " + why));
    }

    private void end() {
        ended = true;
        sink.accept(new RunEvent(seq++, runId, END, "", tokens.json()));
    }

    /** Notes that a message went out in chunks; once per message, not per token. */
    private void streamed(String messageId) {
        if (!messageId.equals(lastStreamed)) {
            streamed.add(messageId);
            lastStreamed = messageId;
        }
    }

    private static boolean root(GraphEvent e) {
        return e.tag().ns().isEmpty();
    }
}
