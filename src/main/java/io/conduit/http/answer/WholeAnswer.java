package io.conduit.http.answer;

import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import java.util.List;

/**
 * A run's answer read to its end from its pieces ({@link RunReading}): its text and reasoning, JSON-escaped as the
 * pieces carry them (a door writes its JSON around them), its usage as JSON, or, when the run failed, why.
 *
 * @param text      the answer's text, JSON-escaped
 * @param reasoning its reasoning, JSON-escaped; empty when there was none
 * @param usage     {@code {prompt_tokens, completion_tokens, total_tokens}}
 * @param failure   why the run failed, or null
 */
public record WholeAnswer(String text, String reasoning, String usage, String failure) {

    /** The answer the pieces make, read up to the first end. */
    public static WholeAnswer of(List<RunEvent> pieces) {
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        for (RunEvent p : pieces) {
            switch (p.mode()) {
                case RunReading.TEXT -> text.append(p.data());
                case RunReading.REASONING -> reasoning.append(p.data());
                case RunReading.FAILED -> {
                    return new WholeAnswer(text.toString(), reasoning.toString(), TokenCount.NONE, p.data());
                }
                case RunReading.END -> {
                    return new WholeAnswer(text.toString(), reasoning.toString(), p.data(), null);
                }
                default -> {
                }
            }
        }
        return new WholeAnswer(text.toString(), reasoning.toString(), TokenCount.NONE, null);
    }

    public boolean failed() {
        return failure != null;
    }

    /** The text as it reads (unescaped), for a door that does not write it into JSON by hand. */
    public String plainText() {
        try {
            return JsonCodec.MAPPER.readValue('"' + text + '"', String.class);
        } catch (Exception e) {
            return text; // the pieces are escaped by our own writer: not reached
        }
    }
}
