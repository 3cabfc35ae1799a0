package io.conduit.agui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import java.util.function.Consumer;

/**
 * Where a run's AG-UI frames are made ({@link AgUiEvents}, {@link AgUiMessageEvents}): one event per frame, its JSON
 * the frame's data and its type the frame's mode, numbered from the run's first seq. Not thread-safe: one run's.
 */
final class AgUiFrames {

    static final String RUN_FINISHED = "RUN_FINISHED";
    static final String RUN_ERROR = "RUN_ERROR";

    private final Consumer<RunEvent> out;
    private final String runId;
    private long seq;

    AgUiFrames(Consumer<RunEvent> out, String runId, long firstSeq) {
        this.out = out;
        this.runId = runId;
        this.seq = firstSeq;
    }

    void emit(ObjectNode event) {
        out.accept(new RunEvent(seq++, runId, event.get("type").textValue(), "", event.toString()));
    }

    /** A delta's event: {@code frame} is its JSON cut where the text goes ({@link #cut}); {@code key} names its block. */
    void delta(String type, String key, RunEvent.TextFrame frame, String text) {
        out.accept(RunEvent.withText(seq++, runId, type, "", key, frame, text));
    }

    /** A delta event's JSON cut where its {@code delta} goes: the tokens of a block share it. */
    static RunEvent.TextFrame cut(ObjectNode event) {
        return RunEvent.TextFrame.cut(event.put("delta", RunEvent.TEXT_SLOT).toString());
    }

    /** An event of this type, its fields to be put. Optional fields are omitted, never null. */
    static ObjectNode event(String type) {
        return JsonCodec.MAPPER.createObjectNode().put("type", type);
    }

    static ObjectNode runError(String code, String message) {
        return event(RUN_ERROR).put("message", message).put("code", code);
    }
}
