package io.conduit.completions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A run read whole, for a request without {@code stream}: the events it needs are kept as they come (references to
 * the log's own, nothing parsed on the run's thread) and read once the run has ended, on the request's context, into
 * one {@code chat.completion} with usage, or the run's failure as an error.
 */
final class WholeCompletion implements RunEventListener {

    /** The answer: a {@code chat.completion}, or, when the run failed, an error. */
    record Answer(String completion, OpenAiError error) {
    }

    private final CompletionJson completion;
    private final Context context;
    private final Consumer<Answer> onEnd;
    private final List<RunEvent> events = new ArrayList<>();

    WholeCompletion(CompletionJson completion, Context context, Consumer<Answer> onEnd) {
        this.completion = completion;
        this.context = context;
        this.onEnd = onEnd;
    }

    @Override
    public void onEvent(RunEvent e) {
        if (RunReading.reads(e)) {
            events.add(e);
        }
    }

    @Override
    public void onEnd() {
        context.runOnContext(v -> onEnd.accept(answer(events, completion)));
    }

    static Answer answer(List<RunEvent> events, CompletionJson completion) {
        RunReading reading = new RunReading();
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        String error = null;
        List<RunReading.Piece> pieces = new ArrayList<>();
        events.forEach(e -> pieces.addAll(reading.read(e)));
        pieces.addAll(reading.close());
        for (RunReading.Piece p : pieces) {
            switch (p) {
                case RunReading.Piece.Text t -> content.append(t.text());
                case RunReading.Piece.Reasoning r -> reasoning.append(r.text());
                case RunReading.Piece.End end -> error = end.error();
            }
        }
        if (error != null) {
            return new Answer(null, new OpenAiError(500, "server_error", "run_failed", null, "The run failed: " + error, 0));
        }
        ObjectNode c = completion.header("chat.completion");
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", content.toString());
        if (!reasoning.isEmpty()) {
            message.put("reasoning_content", reasoning.toString());
        }
        message.putNull("refusal");
        choice.putNull("logprobs");
        choice.put("finish_reason", "stop");
        c.set("usage", CompletionJson.usage(reading));
        return new Answer(c.toString(), null);
    }
}
