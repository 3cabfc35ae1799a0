package io.conduit.runs.delivery;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.TextDelta;

/**
 * Consecutive text deltas of one message folded into one event, without parsing JSON: the merged event is the last
 * one (its seq, so ids stay monotonic and a replay from any id still gives each character once) with the texts of
 * all of them, in order, in its text's place. The texts are kept apart until {@link #event()} so that merging n
 * deltas costs O(total text), not O(n²).
 */
final class TextMerge {

    private RunEvent last;
    private final StringBuilder text = new StringBuilder();
    private int count;

    TextMerge(RunEvent first) {
        add(first);
    }

    /** Whether {@code next} continues the same message's text (same run, mode, namespace and key). */
    static boolean continues(RunEvent prev, RunEvent next) {
        TextDelta a = prev.text();
        TextDelta b = next.text();
        return a != null && b != null && a.key().equals(b.key()) && prev.runId().equals(next.runId())
                && prev.mode().equals(next.mode()) && prev.ns().equals(next.ns());
    }

    boolean accepts(RunEvent next) {
        return continues(last, next);
    }

    void add(RunEvent e) {
        TextDelta d = e.text();
        text.append(e.data(), d.start(), d.end());
        last = e;
        count++;
    }

    /** How many deltas it holds. */
    int count() {
        return count;
    }

    /** Its size as the outbox counts it. */
    long bytes() {
        TextDelta d = last.text();
        return Outbox.size(last.data().length() - (d.end() - d.start()) + text.length());
    }

    RunEvent event() {
        if (count == 1) {
            return last;
        }
        TextDelta d = last.text();
        String data = last.data();
        String merged = new StringBuilder(data.length() - (d.end() - d.start()) + text.length())
                .append(data, 0, d.start()).append(text).append(data, d.end(), data.length()).toString();
        return new RunEvent(last.seq(), last.runId(), last.mode(), last.ns(), merged,
                new TextDelta(d.key(), d.start(), d.start() + text.length()));
    }
}
