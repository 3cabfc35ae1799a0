package io.conduit.completions;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.RunEvent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What an OpenAI client is told of a run, read from the run's events in the thread's classic log, root graph only:
 * the text of the AI messages it writes (streamed or whole, several joined by a blank line), their reasoning, the
 * question of an interrupt it stops at (as text: the client's next message answers it), the tokens its model calls
 * used (the graph's {@code usage} channel, else its AI messages' {@code usage_metadata}), and how it ended. Tool calls and tool results are not read: the tools are the server's, not the client's.
 * One instance per run, fed in order, on one thread. (The classic log, not the protocol's: its run segment opens when
 * the run is created, so a subscriber never misses the start of a queued run, and its updates carry usage and
 * interrupts.)
 */
final class RunReading {

    /** What one event says: text or reasoning to add, the end ({@code error} null: it finished), or nothing. */
    sealed interface Piece {
        record Text(String text) implements Piece {
        }

        record Reasoning(String text) implements Piece {
        }

        record End(String error) implements Piece {
        }
    }

    /** The events it reads: the root's messages and updates (usage, interrupts), and the run's end. */
    static boolean reads(RunEvent e) {
        return e.terminal() || e.ns().isEmpty() && ("messages".equals(e.mode()) || "updates".equals(e.mode()));
    }

    private String textMessage;
    private boolean anyText;
    private boolean ended;
    /** Tokens by the graph's {@code usage} channel (every model call, the agent's summarizer's too), when it has one. */
    private boolean usageChannel;
    private long promptTokens;
    private long completionTokens;
    /** Tokens by the AI messages' {@code usage_metadata}: for a graph that keeps no usage channel. */
    private long messagePromptTokens;
    private long messageCompletionTokens;

    List<Piece> read(RunEvent e) {
        if (ended || !reads(e)) {
            return List.of();
        }
        return switch (e.mode()) {
            case "messages" -> message(tree(e.data()).path(0));
            case "updates" -> update(tree(e.data()));
            case "error" -> end(errorText(tree(e.data())));
            default -> end(null); // "end"
        };
    }

    /** The end, when the log ended without telling how (a run stopped before it started). */
    List<Piece> close() {
        return ended ? List.of() : end(null);
    }

    long promptTokens() {
        return usageChannel ? promptTokens : messagePromptTokens;
    }

    long completionTokens() {
        return usageChannel ? completionTokens : messageCompletionTokens;
    }

    private List<Piece> end(String error) {
        ended = true;
        return List.of(new Piece.End(error));
    }

    /** An AI message chunk (its text or its reasoning), or a whole AI message a node wrote without streaming it. */
    private List<Piece> message(JsonNode m) {
        String type = m.path("type").asText();
        if (!"AIMessageChunk".equals(type) && !"ai".equals(type)) {
            return List.of();
        }
        List<Piece> out = new ArrayList<>(1);
        String reasoning = m.path("additional_kwargs").path("reasoning_content").asText("");
        if (!reasoning.isEmpty()) {
            out.add(new Piece.Reasoning(reasoning));
        }
        String content = m.path("content").isTextual() ? m.path("content").asText() : "";
        if (!content.isEmpty()) {
            out.add(text(m.path("id").asText(""), content));
        }
        return out;
    }

    /** A node's update: the usage it adds; or the run's interrupts, whose questions become text. */
    private List<Piece> update(JsonNode u) {
        JsonNode interrupts = u.get("__interrupt__");
        if (interrupts != null) {
            List<Piece> out = new ArrayList<>();
            for (JsonNode i : interrupts) {
                out.add(text("interrupt:" + i.path("id").asText(), InterruptText.of(i.get("value"))));
            }
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = u.fields(); it.hasNext(); ) {
            JsonNode written = it.next().getValue();
            JsonNode usage = written.get("usage");
            if (usage != null && usage.isObject()) {
                usageChannel = true;
                promptTokens += usage.path("inputTokens").asLong(0);
                completionTokens += usage.path("outputTokens").asLong(0);
            }
            for (JsonNode m : written.path("messages")) {
                JsonNode meta = m.path("usage_metadata");
                if ("ai".equals(m.path("type").asText()) && meta.isObject()) {
                    messagePromptTokens += meta.path("input_tokens").asLong(0);
                    messageCompletionTokens += meta.path("output_tokens").asLong(0);
                }
            }
        }
        return List.of();
    }

    /** Text of a message: a blank line first when another message's text came before. */
    private Piece.Text text(String messageId, String text) {
        String joined = anyText && !messageId.equals(textMessage) ? "\n\n" + text : text;
        textMessage = messageId;
        anyText = true;
        return new Piece.Text(joined);
    }

    private static String errorText(JsonNode error) {
        String code = error.path("error").asText("");
        String message = error.path("message").asText("the run failed");
        return code.isEmpty() ? message : code + ": " + message;
    }

    private static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (Exception e) {
            return JsonCodec.MAPPER.missingNode(); // our own JSON: not reached
        }
    }
}
