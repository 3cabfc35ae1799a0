package io.conduit.agent;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The loop that {@link StructuredOutput} and {@link CheckedJsonAnswer} share: a model call that streams nothing (a
 * value is not a message), announced as a {@code chat_model} child run of the stage and reported to {@code onCall};
 * its answer read into a value or refused with a problem; a refused answer asked again, with a request made from
 * the problem, until the attempts run out; then the failure the caller makes of the last problem. How the value is
 * asked for and read, and what a retry tells the model, are the callers' own (they differ, and their tests pin them).
 */
final class AnswerAttempts {

    /** Reads attempt {@code n}'s (0-based) reply; throws {@link IllegalArgumentException} saying what is wrong with it. */
    interface Reader<T> {
        T read(int n, StreamedModelCall.Reply reply);
    }

    /** The request of attempt {@code n} (0-based, at least 1), after {@code last} got {@code reply}, refused for {@code problem}. */
    interface Retry {
        ModelRequest next(int n, ModelRequest last, StreamedModelCall.Reply reply, String problem);
    }

    private AnswerAttempts() {
    }

    static <T> Uni<T> run(LanguageModel model, ModelRequest first, int attempts, Reader<T> read, Retry retry,
                          Function<String, RuntimeException> exhausted, NodeContext ctx, String stage, Consumer<ModelResponse> onCall) {
        return attempt(model, first, 0, attempts, read, retry, exhausted, ctx, stage, onCall);
    }

    private static <T> Uni<T> attempt(LanguageModel model, ModelRequest request, int n, int attempts, Reader<T> read, Retry retry,
                                      Function<String, RuntimeException> exhausted, NodeContext ctx, String stage,
                                      Consumer<ModelResponse> onCall) {
        return StreamedModelCall.run(model, request, ctx, TimeOrderedIds.next(), stage, StreamedModelCall.Shown.NOTHING).chain(reply -> {
            onCall.accept(reply.response());
            try {
                return Uni.createFrom().item(read.read(n, reply));
            } catch (IllegalArgumentException e) {
                if (n + 1 >= attempts) {
                    return Uni.createFrom().failure(exhausted.apply(e.getMessage()));
                }
                return attempt(model, retry.next(n + 1, request, reply, e.getMessage()), n + 1, attempts, read, retry, exhausted, ctx, stage,
                        onCall);
            }
        });
    }
}
