package io.conduit.llm;

import io.conduit.agent.port.ModelEvent.ToolCallDelta;
import io.conduit.agent.message.ToolCall;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tool calls of one attempt as {@link ToolCallDelta}s: id and name on a call's first delta only, argument
 * fragments after, and what the final response holds beyond what was streamed as a last delta, so that the deltas
 * of every call add up to its final arguments. The providers differ:
 * <ul>
 * <li>OpenAI streams fragments; LangChain4j 1.11 passes each on ({@code onPartialToolCall}) with the raw
 * {@code index} and fragment, but its id and name come from one builder it resets whenever the index changes (and
 * that {@link OpenAiChunkRewrite} renames), so they are only right on a call's first fragment, the one the
 * interceptor makes of the delta that opens the call. They are taken from there. The "complete" calls that builder
 * hands out are not: with interleaved calls they hold a part of one (and "{}" for a call whose fragments have not
 * begun), so they are ignored; a call no fragment announced is streamed from the response at the end.</li>
 * <li>Mistral sends each call whole in one chunk, which LangChain4j passes on as a complete call at once: one delta.
 * Mistral may leave the id out; one is made here, so the delta and the response carry the same.</li>
 * </ul>
 * The callbacks of a stream come one at a time; the methods are synchronized only so that this holds without a
 * proof about LangChain4j's threads.
 */
final class ToolCallDeltas {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private static final class Call {
        final String id;
        final StringBuilder sent = new StringBuilder();

        Call(String id) {
            this.id = id;
        }
    }

    /** By the provider's index, in order. */
    private final TreeMap<Integer, Call> calls = new TreeMap<>();
    private final boolean fragmented;

    /** @param fragmented whether the provider streams arguments in fragments (OpenAI), so whole calls are not final */
    ToolCallDeltas(boolean fragmented) {
        this.fragmented = fragmented;
    }

    /**
     * An argument fragment (OpenAI); id and name count only on the call's first one, which
     * {@link OpenAiChunkRewrite} makes of the delta that opens the call (its arguments only the opening mark).
     */
    synchronized ToolCallDelta fragment(int index, String id, String name, String rawArguments) {
        String arguments = cleanArguments(rawArguments);
        Call call = calls.get(index);
        if (call == null) {
            call = open(index, id);
            call.sent.append(arguments);
            return new ToolCallDelta(index, call.id, cleanName(name), arguments);
        }
        call.sent.append(arguments);
        return new ToolCallDelta(index, null, null, arguments);
    }

    /** A call seen whole (Mistral's chunk): what was not streamed of it, or null. */
    synchronized ToolCallDelta whole(int index, String id, String name, String arguments) {
        return fragmented ? null : announce(index, id, name, arguments);
    }

    private ToolCallDelta announce(int index, String id, String name, String arguments) {
        Call call = calls.get(index);
        if (call == null) {
            call = open(index, id);
            String args = arguments == null || arguments.isEmpty() ? "{}" : arguments;
            call.sent.append(args);
            return new ToolCallDelta(index, call.id, cleanName(name), args);
        }
        return rest(index, call, arguments);
    }

    /**
     * The response's calls, with the ids the deltas announced; {@code unsent} gets the deltas still owed: the end of
     * a call's arguments that no fragment carried, or a call no callback announced. A final call is paired with the
     * streamed call of the same id; one without an id (Mistral) with the next one not yet paired, in index order.
     */
    synchronized List<ToolCall> finish(List<ToolCall> finalCalls, List<ToolCallDelta> unsent) {
        List<Map.Entry<Integer, Call>> open = new ArrayList<>(calls.entrySet());
        List<ToolCall> out = new ArrayList<>(finalCalls.size());
        for (ToolCall c : finalCalls) {
            Map.Entry<Integer, Call> streamed = usable(c.id())
                    ? open.stream().filter(e -> e.getValue().id.equals(c.id())).findFirst().orElse(null)
                    : open.isEmpty() ? null : open.get(0);
            if (streamed != null) {
                open.remove(streamed);
                ToolCallDelta rest = rest(streamed.getKey(), streamed.getValue(), c.arguments());
                if (rest != null) {
                    unsent.add(rest);
                }
                out.add(new ToolCall(streamed.getValue().id, c.name(), c.arguments()));
            } else {
                ToolCallDelta whole = announce(calls.isEmpty() ? 0 : calls.lastKey() + 1, c.id(), c.name(), c.arguments());
                unsent.add(whole);
                out.add(new ToolCall(whole.id(), c.name(), c.arguments()));
            }
        }
        return out;
    }

    private Call open(int index, String id) {
        Call call = new Call(usable(id) ? id : newId());
        calls.put(index, call);
        return call;
    }

    /** What {@code arguments} has beyond what was sent, when it continues it; else null (nothing to add, or a mismatch). */
    private static ToolCallDelta rest(int index, Call call, String arguments) {
        String sent = call.sent.toString();
        if (arguments == null || arguments.length() <= sent.length() || !arguments.startsWith(sent)) {
            return null;
        }
        String rest = arguments.substring(sent.length());
        call.sent.append(rest);
        return new ToolCallDelta(index, null, null, rest);
    }

    /** Without {@link OpenAiChunkRewrite#ARGUMENTS_OPENING}. */
    static String cleanArguments(String arguments) {
        return arguments == null ? null : arguments.replace(OpenAiChunkRewrite.ARGUMENTS_OPENING, "");
    }

    /** Mistral's SDK turns a missing id into "null". */
    private static boolean usable(String id) {
        return id != null && !id.isBlank() && !"null".equals(id);
    }

    /** Without {@link OpenAiChunkRewrite}'s continuation marks; null when nothing is left. */
    static String cleanName(String name) {
        if (name == null) {
            return null;
        }
        String clean = name.replace(OpenAiChunkRewrite.NAME_CONTINUATION, "");
        return clean.isBlank() ? null : clean;
    }

    /** Mistral accepts only 9 characters from [a-zA-Z0-9] as an id when the history comes back. */
    static String newId() {
        StringBuilder id = new StringBuilder(9);
        for (int i = 0; i < 9; i++) {
            id.append(ID_CHARS.charAt(RANDOM.nextInt(ID_CHARS.length())));
        }
        return id.toString();
    }
}
