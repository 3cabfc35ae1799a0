package io.conduit.runs.graphs;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.graph.Channel;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.wire.LangChainMessages;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A client's input (or {@code command.update}) as an update of a graph's state: each field a channel; chat
 * messages in LangChain's or OpenAI's shape. Fields the state does not have are ignored, as LangGraph does (a run's
 * input is refused for them first, {@link RunRequests}); a value of the wrong shape is an {@link InvalidInputException}
 * naming the field.
 */
public final class InputDecoder {

    private InputDecoder() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Update decode(StateSchema schema, JsonNode input, String field) {
        if (input == null || input.isNull()) {
            return null;
        }
        if (!input.isObject()) {
            throw new InvalidInputException(field, "must be an object of state fields");
        }
        Update u = Update.none();
        for (Iterator<Map.Entry<String, JsonNode>> it = input.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Channel ch = schema.channel(e.getKey());
            if (ch == null) {
                continue;
            }
            String where = field + "." + e.getKey();
            if (holdsMessages(ch)) {
                List<ChatMessage> messages = new ArrayList<>();
                JsonNode v = e.getValue();
                if (v.isArray()) {
                    int i = 0;
                    for (JsonNode m : v) {
                        messages.add(LangChainMessages.fromJson(m, where + "[" + i++ + "]"));
                    }
                } else {
                    messages.add(LangChainMessages.fromJson(v, where));
                }
                u = u.add(ch, messages);
            } else {
                try {
                    u = u.set(ch, ch.writeCodec().decode(e.getValue().toString()));
                } catch (RuntimeException bad) {
                    throw new InvalidInputException(where, "is not a valid value for this field");
                }
            }
        }
        return u;
    }

    private static boolean holdsMessages(Channel<?, ?> ch) {
        return ch.storesWrites() && ch.writeCodec() instanceof JsonCodec<?> c && ChatMessage.class.isAssignableFrom(c.type().getRawClass());
    }
}
