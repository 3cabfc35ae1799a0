package io.conduit.agent;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A model call whose answer is a JSON value of a given type, read from its text only (the tutor's questions and
 * verdicts; {@link StructuredOutput} also asks through a function call and tries several ways, for objects of a schema), checked and asked again within a budget: the text is
 * read as JSON (a code fence or words around the value are tolerated), decoded into {@code type}, then checked by the
 * caller's rules; an answer that fails is shown to the model with what was wrong, and it answers again, at most
 * {@code attempts} times in all. Each call is announced as a {@code chat_model} child run of {@code stage} and streams
 * nothing: the value is not a message. Past the budget the {@code Uni} fails with {@link InvalidOutputException},
 * naming the stage and the last problems. The loop is {@link AnswerAttempts}, shared with {@link StructuredOutput}.
 */
public final class CheckedJsonAnswer {

    /** Unknown fields are ignored: models add some; the checks decide what is missing. */
    private static final ObjectMapper LENIENT = JsonCodec.MAPPER.copy().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** The value, and each model call made to get it (the failed attempts first). */
    public record Result<T>(T value, List<ModelResponse> calls) {
    }

    /** No valid answer within the budget. */
    public static final class InvalidOutputException extends RuntimeException {
        public InvalidOutputException(String message) {
            super(message);
        }
    }

    private CheckedJsonAnswer() {
    }

    /**
     * @param problems what is wrong with a decoded value (empty when it is fine)
     * @param attempts model calls allowed in all, at least 1
     */
    public static <T> Uni<Result<T>> ask(LanguageModel model, ModelRequest request, Class<T> type, Function<T, List<String>> problems,
                                         int attempts, NodeContext ctx, String stage) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        List<ModelResponse> calls = new CopyOnWriteArrayList<>();
        return AnswerAttempts.run(model, request, attempts, (n, reply) -> checked(reply.message().content(), type, problems),
                        (n, last, reply, problem) -> again(last, reply.message().content(), problem, stage),
                        problem -> new InvalidOutputException(stage + " gave no valid answer in " + attempts
                                + " attempt" + (attempts == 1 ? "" : "s") + ": " + problem), ctx, stage, calls::add)
                .map(value -> new Result<>(value, List.copyOf(calls)));
    }

    /** The value {@code text} holds; IllegalArgumentException with what is wrong with it, the problems joined. */
    private static <T> T checked(String text, Class<T> type, Function<T, List<String>> problems) {
        List<String> wrong;
        T value = null;
        try {
            value = LENIENT.readValue(json(text), type);
            wrong = value == null ? List.of("the answer is empty") : problems.apply(value);
        } catch (Exception notJson) {
            wrong = List.of("it is not valid JSON of the expected shape (" + firstLine(notJson.getMessage()) + ")");
        }
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", wrong));
        }
        return value;
    }

    /** The conversation so far, the refused answer and what was wrong with it: the model answers again. */
    private static ModelRequest again(ModelRequest last, String text, String problem, String stage) {
        List<ChatMessage> again = new ArrayList<>(last.messages());
        again.add(new AssistantMessage(TimeOrderedIds.next(), text, List.of(), null, stage));
        again.add(UserMessage.of("That answer cannot be used: " + problem + ". Answer again with only the corrected JSON, nothing else."));
        return new ModelRequest(last.role(), List.copyOf(again), last.tools(), last.model());
    }

    /** The JSON value in a model's text: inside a code fence if there is one, else from the first bracket to the last. */
    static String json(String text) {
        String t = text == null ? "" : text.strip();
        int fence = t.indexOf("```");
        if (fence >= 0) {
            int start = t.indexOf('\n', fence);
            int end = t.indexOf("```", start < 0 ? fence + 3 : start);
            if (start >= 0 && end > start) {
                t = t.substring(start + 1, end).strip();
            }
        }
        int open = firstOf(t, '{', '[');
        if (open < 0) {
            return t;
        }
        int close = Math.max(t.lastIndexOf('}'), t.lastIndexOf(']'));
        return close > open ? t.substring(open, close + 1) : t.substring(open);
    }

    private static int firstOf(String t, char a, char b) {
        int i = t.indexOf(a);
        int j = t.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
