package io.conduit.agent;

import java.util.List;

/** Follow-up questions the user might ask next, as {@link FollowUpStage} proposed them. */
public record Suggestions(List<String> questions) {

    public static final Suggestions NONE = new Suggestions(List.of());

    public Suggestions {
        questions = questions == null ? List.of() : List.copyOf(questions);
    }
}
