package io.conduit.completions;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/** What a streamed and a whole answer share: the completion's id, model and time. */
record CompletionJson(String id, String model, long created) {

    /** The completion of a run: its id is the run's, so the run can be found from the answer. */
    static CompletionJson of(String runId, String model) {
        return new CompletionJson("chatcmpl-" + runId, model, System.currentTimeMillis() / 1000);
    }

    /** The start of a completion object, {@code {"id":…,"object":…,"created":…,"model":…}} without its closing brace. */
    String head(String object) {
        StringBuilder b = new StringBuilder(128).append("{\"id\":");
        quote(b, id).append(",\"object\":");
        quote(b, object).append(",\"created\":").append(created).append(",\"model\":");
        return quote(b, model).toString();
    }

    static StringBuilder quote(StringBuilder b, String s) {
        b.append('"');
        JsonStringEncoder.getInstance().quoteAsString(s, b);
        return b.append('"');
    }
}
