package io.conduit.runs;

/** {@code POST /assistants} with an id that exists, and {@code if_exists=raise}. */
public class AssistantExistsException extends RuntimeException {
    public AssistantExistsException(String assistantId) {
        super("Assistant " + assistantId + " already exists");
    }
}
