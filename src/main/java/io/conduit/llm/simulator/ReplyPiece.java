package io.conduit.llm.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * One streamed piece of a {@link SimulatedReply}, whatever carries it: the HTTP endpoint writes each as an OpenAI
 * chunk ({@link ChatCompletionChunks}), the in-process model as a {@code ModelEvent} ({@link SimulatedLanguageModel}).
 * Both stream the same pieces in the same order, so the script is interpreted and cut into tokens in one place.
 */
sealed interface ReplyPiece {

    /** A word of reasoning, with the whitespace after it. */
    record Reasoning(String text) implements ReplyPiece {
    }

    /** A word of the answer, with the whitespace after it (one simulator token). */
    record Text(String text) implements ReplyPiece {
    }

    /** The opening of tool call {@code index}: its name, no arguments yet. */
    record ToolCallOpening(int index, String name) implements ReplyPiece {
    }

    /** A fragment of tool call {@code index}'s arguments; a call's fragments, in order, join to its arguments. */
    record ToolCallArguments(int index, String fragment) implements ReplyPiece {
    }

    /** The end: {@code stop}, or {@code tool_calls} when the reply calls tools. */
    record Finish(String reason) implements ReplyPiece {
    }

    /** Tool-call arguments stream in pieces this long (code points), as a model's argument tokens do. */
    int ARGUMENT_FRAGMENT = 8;

    /** In streaming order: reasoning, text, then each tool call opened and its arguments in fragments; last, the finish. */
    static List<ReplyPiece> of(SimulatedReply reply) {
        List<ReplyPiece> pieces = new ArrayList<>();
        if (reply.reasoning() != null) {
            TokenCount.split(reply.reasoning()).forEach(t -> pieces.add(new Reasoning(t)));
        }
        TokenCount.split(reply.text()).forEach(t -> pieces.add(new Text(t)));
        for (int i = 0; i < reply.toolCalls().size(); i++) {
            SimulatedReply.Call call = reply.toolCalls().get(i);
            pieces.add(new ToolCallOpening(i, call.name()));
            for (String fragment : fragments(call.arguments())) {
                pieces.add(new ToolCallArguments(i, fragment));
            }
        }
        pieces.add(new Finish(reply.finishReason()));
        return pieces;
    }

    /** The arguments cut into short pieces, never inside a surrogate pair. */
    static List<String> fragments(String arguments) {
        List<String> out = new ArrayList<>();
        int[] codePoints = arguments.codePoints().toArray();
        for (int i = 0; i < codePoints.length; i += ARGUMENT_FRAGMENT) {
            out.add(new String(codePoints, i, Math.min(ARGUMENT_FRAGMENT, codePoints.length - i)));
        }
        return out;
    }
}
