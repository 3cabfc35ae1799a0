package io.conduit.agent.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.conduit.kernel.TimeOrderedIds;
import java.util.List;

/**
 * What the user said, and the images attached to it ({@code images}: each an {@code https:} URL or a {@code data:}
 * URL; kept only when there are some, so a text-only message is stored as it always was).
 */
public record UserMessage(String id, String content, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> images) implements ChatMessage {

    public UserMessage {
        content = content == null ? "" : content; // a message stored without content (an older version's) reads as empty
        images = images == null ? List.of() : List.copyOf(images);
    }

    public UserMessage(String id, String content) {
        this(id, content, List.of());
    }

    @Override
    public boolean readable() {
        return !content.isBlank() || !images.isEmpty();
    }

    public static UserMessage of(String content) {
        return new UserMessage(TimeOrderedIds.next(), content);
    }
}
