package io.conduit;

import java.util.ArrayList;
import java.util.List;

/**
 * The ways clients have sent a user message with nothing in it (issue 17: each one was run, failed in ingress with
 * "message … is empty", stayed in the thread and failed every later turn). The door tests send each through their door
 * and expect a refusal that writes nothing.
 */
public final class EmptyMessages {

    private EmptyMessages() {
    }

    /** User messages (JSON, LangChain's or OpenAI's shape) with no text and no image. */
    public static final List<String> USER_MESSAGES = List.of(
            "{\"role\":\"user\",\"content\":\"\"}",
            "{\"role\":\"user\",\"content\":null}",
            "{\"role\":\"user\",\"content\":[]}",
            "{\"role\":\"user\"}",
            "{\"type\":\"human\",\"content\":\" \\n\\t \"}",
            "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\"}]}");

    /**
     * Run inputs of the default agent that bring no usable user message: each message above as the input's only
     * message, as {@code messages} given as an object, after a good message; and an empty list.
     */
    public static List<String> inputs() {
        List<String> out = new ArrayList<>();
        for (String m : USER_MESSAGES) {
            out.add("{\"messages\":[" + m + "]}");
        }
        out.add("{\"messages\":{\"role\":\"user\"}}");
        out.add("{\"messages\":{\"role\":\"user\",\"content\":\"\"}}");
        out.add("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}," + USER_MESSAGES.get(0) + "]}");
        out.add("{\"messages\":[]}");
        return out;
    }
}
