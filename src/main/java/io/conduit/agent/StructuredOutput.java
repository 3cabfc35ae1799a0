package io.conduit.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import io.conduit.graph.NodeContext;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A model call whose answer must be a JSON object of a given schema, read in up to three ways, each tried a number
 * of times before the next: the model calls a function whose arguments are the object ({@link Method#TOOL_CALL}),
 * answers with the object as its whole text ({@link Method#JSON_TEXT}), or writes it somewhere in its text, in a
 * code fence or among prose ({@link Method#EXTRACTED_JSON}). An attempt after a failed one tells the model what
 * was wrong, in a user message that repeats the task. Past the budget the call fails with {@link Exhausted}. Each
 * model call is announced as a child run of the node and reported to {@code onCall} (for usage and metrics), failed
 * ones included. A model error (the provider's) is not retried here: the model port retries what is safe. The loop
 * is {@link AnswerAttempts}, shared with {@link CheckedJsonAnswer}.
 */
public final class StructuredOutput {

    /** How the object is read from the model's answer. */
    public enum Method { TOOL_CALL, JSON_TEXT, EXTRACTED_JSON }

    /** The methods in order, and the attempts each gets. */
    public record Budget(List<Method> methods, int attemptsPerMethod) {

        public static final Budget DEFAULT = new Budget(List.of(Method.TOOL_CALL, Method.JSON_TEXT, Method.EXTRACTED_JSON), 2);

        public Budget {
            if (methods.isEmpty() || attemptsPerMethod < 1) {
                throw new IllegalArgumentException("a structured-output budget needs a method and an attempt");
            }
            methods = List.copyOf(methods);
        }

        public int total() {
            return methods.size() * attemptsPerMethod;
        }
    }

    /**
     * What is asked: a function-like {@code name} and {@code description}, the object's JSON {@code schema}, and
     * {@code read}, which turns the parsed object into the value or throws {@link IllegalArgumentException} saying
     * what is wrong (a missing field, a value out of range): that problem is what the next attempt is told.
     */
    public record Request<T>(ModelRole role, String model, List<ChatMessage> messages, String name, String description, String schema,
                             Function<JsonNode, T> read) {
    }

    /** The value and the attempt that gave it (1-based, over all methods). */
    public record Result<T>(T value, Method method, int attempt) {
    }

    /** No attempt gave a usable object. */
    public static final class Exhausted extends RuntimeException {
        private final int attempts;

        Exhausted(String name, Budget budget, String lastProblem) {
            super("no usable " + name + " after " + budget.total() + " attempts (" + budget.methods().size() + " methods x "
                    + budget.attemptsPerMethod() + "); the last answer: " + lastProblem);
            this.attempts = budget.total();
        }

        public int attempts() {
            return attempts;
        }
    }

    private StructuredOutput() {
    }

    public static <T> Uni<Result<T>> call(LanguageModel model, Request<T> request, Budget budget, NodeContext ctx, String stage,
                                          Consumer<ModelResponse> onCall) {
        return AnswerAttempts.run(model, call(request, budget, 0, null), budget.total(),
                (n, reply) -> new Result<>(request.read().apply(parse(method(budget, n), request.name(), reply.response())), method(budget, n), n + 1),
                (n, last, reply, problem) -> call(request, budget, n, problem),
                problem -> new Exhausted(request.name(), budget, problem), ctx, stage, onCall);
    }

    private static Method method(Budget budget, int n) {
        return budget.methods().get(n / budget.attemptsPerMethod());
    }

    /** Attempt {@code n}'s call: the method's instruction, the task and what was wrong; the function only for TOOL_CALL. */
    private static ModelRequest call(Request<?> request, Budget budget, int n, String problem) {
        Method method = method(budget, n);
        return new ModelRequest(request.role(), messages(request, method, problem),
                method == Method.TOOL_CALL ? List.of(new ToolSpec(request.name(), request.description(), request.schema())) : List.of(),
                request.model());
    }

    /** The task's messages with the method's instruction first, and what was wrong with the last answer last. */
    static List<ChatMessage> messages(Request<?> request, Method method, String problem) {
        List<ChatMessage> out = new ArrayList<>();
        String instruction = switch (method) {
            case TOOL_CALL -> "Give your answer by calling the function " + request.name() + " with its arguments.";
            case JSON_TEXT -> "Give your answer as one JSON object and nothing else, matching this JSON schema: " + request.schema();
            case EXTRACTED_JSON -> "Give your answer as a JSON object in a ```json code block, matching this JSON schema: " + request.schema();
        };
        out.add(new SystemMessage(TimeOrderedIds.next(), instruction));
        out.addAll(request.messages());
        if (problem != null) {
            String task = request.messages().stream().filter(m -> m instanceof UserMessage).map(ChatMessage::content)
                    .reduce((a, b) -> b).orElse("");
            out.add(new UserMessage(TimeOrderedIds.next(), "Your previous answer could not be used: " + problem + ". Again: " + task));
        }
        return out;
    }

    /** The object the answer holds by {@code method}; IllegalArgumentException saying why there is none. */
    static JsonNode parse(Method method, String name, ModelResponse r) {
        String text = switch (method) {
            case TOOL_CALL -> r.toolCalls().stream().filter(c -> name.equals(c.name())).map(ToolCall::arguments).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("it did not call " + name));
            case JSON_TEXT -> r.text() == null ? "" : r.text().strip();
            case EXTRACTED_JSON -> extract(r.text());
        };
        JsonNode node;
        try {
            node = JsonCodec.MAPPER.readTree(text == null || text.isBlank() ? "null" : text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("it is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("it is not a JSON object");
        }
        return node;
    }

    /** The first balanced {...} of the text (strings and escapes respected), or the text when there is none. */
    static String extract(String text) {
        if (text == null) {
            return "";
        }
        int start = text.indexOf('{');
        while (start >= 0) {
            int depth = 0;
            boolean inString = false;
            for (int i = start; i < text.length(); i++) {
                char c = text.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    return text.substring(start, i + 1);
                }
            }
            start = text.indexOf('{', start + 1);
        }
        return text;
    }
}
