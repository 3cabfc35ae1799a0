package io.conduit.blueprints.request;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The {@code output} bucket: the answer, follow-up suggestions, and a prompt for the user to choose one (optional). */
public record RequestOutput(String text, List<String> suggestions, @JsonProperty("selection_prompt") String selectionPrompt) {

    public static final RequestOutput EMPTY = new RequestOutput("", List.of(), null);

    public RequestOutput {
        text = text == null ? "" : text;
        suggestions = suggestions == null ? List.of() : List.copyOf(suggestions);
    }
}
