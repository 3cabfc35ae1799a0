package io.conduit.agent;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ModelEvent.ToolCallDelta;
import io.conduit.kernel.TimeOrderedIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The tool calls of one model call as chunks of its message, kept so that what clients assemble from the chunks is
 * what the message in state holds: a call's first chunk carries the id the message will have (made here when the
 * model gave none, as some servers do), and when the call completes, whatever the chunks lacked (a call never
 * streamed, the end of its arguments) follows as last chunks. By the port's contract the n-th call has index n.
 */
final class ToolCallChunks {

    private final Map<Integer, String> ids = new HashMap<>();
    private final Map<Integer, StringBuilder> sent = new HashMap<>();

    /** The chunk for a delta: as it came, with an id on a call's first one. */
    ToolCallDelta chunk(ToolCallDelta delta) {
        int index = delta.index();
        String args = delta.argumentsDelta() == null ? "" : delta.argumentsDelta();
        if (!ids.containsKey(index)) {
            String id = usable(delta.id()) ? delta.id() : newId();
            ids.put(index, id);
            sent.put(index, new StringBuilder(args));
            return new ToolCallDelta(index, id, delta.name(), args);
        }
        sent.get(index).append(args);
        return new ToolCallDelta(index, null, null, args);
    }

    /** The calls as the message will hold them, with the ids their chunks carried; {@code owed} gets the chunks missing. */
    List<ToolCall> finish(List<ToolCall> calls, Consumer<ToolCallDelta> owed) {
        List<ToolCall> out = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            String args = call.arguments() == null ? "" : call.arguments();
            if (!ids.containsKey(i)) {
                ToolCallDelta whole = chunk(new ToolCallDelta(i, call.id(), call.name(), args));
                owed.accept(whole);
                out.add(new ToolCall(whole.id(), call.name(), call.arguments()));
                continue;
            }
            String streamed = sent.get(i).toString();
            if (args.length() > streamed.length() && args.startsWith(streamed)) {
                owed.accept(chunk(new ToolCallDelta(i, null, null, args.substring(streamed.length()))));
            }
            out.add(new ToolCall(ids.get(i), call.name(), call.arguments()));
        }
        return out;
    }

    private static boolean usable(String id) {
        return id != null && !id.isBlank();
    }

    /** Every call needs an id to pair with its result. */
    private static String newId() {
        return "call_" + TimeOrderedIds.next().replace("-", "").substring(0, 24);
    }
}
