package io.conduit.completions;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A run read whole, for a request without {@code stream}: its answer's pieces ({@link RunReading}) are kept as they
 * come (the log's own frames, nothing made on the run's thread) and joined once the run has ended, on the request's
 * context, into one {@code chat.completion} with usage, or the run's failure as an error.
 */
final class WholeCompletion implements RunEventListener {

    /** The answer: a {@code chat.completion}, or, when the run failed, an error. */
    record Answer(String completion, OpenAiError error) {
    }

    private final CompletionJson completion;
    private final Context context;
    private final Consumer<Answer> onEnd;
    private final List<RunEvent> pieces = new ArrayList<>();

    WholeCompletion(CompletionJson completion, Context context, Consumer<Answer> onEnd) {
        this.completion = completion;
        this.context = context;
        this.onEnd = onEnd;
    }

    @Override
    public void onEvent(RunEvent e) {
        pieces.add(e);
    }

    @Override
    public void onEnd() {
        context.runOnContext(v -> onEnd.accept(answer(pieces, completion)));
    }

    /** The answer the pieces make, read up to the first end. */
    static Answer answer(List<RunEvent> pieces, CompletionJson completion) {
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        String usage = TokenCount.NONE;
        read:
        for (RunEvent p : pieces) {
            switch (p.mode()) {
                case RunReading.TEXT -> content.append(p.data());
                case RunReading.REASONING -> reasoning.append(p.data());
                case RunReading.FAILED -> {
                    return new Answer(null, new OpenAiError(500, "server_error", "run_failed", null, "The run failed: " + p.data(), 0));
                }
                case RunReading.END -> {
                    usage = p.data();
                    break read;
                }
                default -> {
                }
            }
        }
        // the texts are JSON-escaped already: the completion is written around them
        StringBuilder c = new StringBuilder(completion.head("chat.completion"))
                .append(",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"").append(content).append('"');
        if (!reasoning.isEmpty()) {
            c.append(",\"reasoning_content\":\"").append(reasoning).append('"');
        }
        c.append(",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":").append(usage).append('}');
        return new Answer(c.toString(), null);
    }
}
