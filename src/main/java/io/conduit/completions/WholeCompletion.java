package io.conduit.completions;

import io.conduit.http.answer.RunAnswers;
import io.conduit.http.answer.WholeAnswer;
import io.conduit.runs.events.RunEvent;
import java.util.List;

/**
 * A run read whole, for a request without {@code stream}: its answer ({@link RunAnswers}, the pieces the log kept)
 * as one {@code chat.completion} with usage, or the run's failure as an error.
 */
final class WholeCompletion {

    /** The answer: a {@code chat.completion}, or, when the run failed, an error. */
    record Answer(String completion, OpenAiError error) {
    }

    private WholeCompletion() {
    }

    /** The answer the pieces make, read up to the first end. */
    static Answer answer(List<RunEvent> pieces, CompletionJson completion) {
        WholeAnswer whole = WholeAnswer.of(pieces);
        if (whole.failed()) {
            return new Answer(null, new OpenAiError(500, "server_error", "run_failed", null, "The run failed: " + whole.failure(), 0));
        }
        // the texts are JSON-escaped already: the completion is written around them
        StringBuilder c = new StringBuilder(completion.head("chat.completion"))
                .append(",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"").append(whole.text()).append('"');
        if (!whole.reasoning().isEmpty()) {
            c.append(",\"reasoning_content\":\"").append(whole.reasoning()).append('"');
        }
        c.append(",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":").append(whole.usage()).append('}');
        return new Answer(c.toString(), null);
    }
}
