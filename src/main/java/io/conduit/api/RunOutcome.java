package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import java.util.function.Consumer;

/**
 * How a run ended, read from its events: the last values of the root graph, the interrupts it paused at, or its
 * error. Told once the run's stream has ended ({@code runs/wait}, {@code join}, {@code cancel?wait=1}).
 */
final class RunOutcome implements RunEventListener {

    /** How an interrupt's {@code values} event starts ({@code {"__interrupt__": [...]}}, written by LangGraphEvents). */
    private static final String INTERRUPT = "{\"__interrupt__\"";

    private final Consumer<RunOutcome> onEnd;
    /** The root graph's last values as sent, parsed only when asked for (see {@link #onEvent}). */
    private String lastValues;
    private JsonNode values;
    private JsonNode interrupts;
    private JsonNode error;

    RunOutcome(Consumer<RunOutcome> onEnd) {
        this.onEnd = onEnd;
    }

    @Override
    public void onEvent(RunEvent e) {
        if ("values".equals(e.mode()) && e.ns().isEmpty()) {
            // every step sends the whole state and only the last one counts: parsing each made a run's wait cost
            // grow with its thread (a sixth of the CPU of a 300-turn thread's late turns), so only the last is parsed
            if (e.data().startsWith(INTERRUPT)) {
                interrupts = tree(e.data()).get("__interrupt__");
            } else {
                lastValues = e.data();
                values = null;
            }
        } else if ("error".equals(e.mode())) {
            error = tree(e.data());
        }
    }

    @Override
    public void onEnd() {
        onEnd.accept(this);
    }

    /** The root graph's last values. */
    JsonNode values() {
        if (values == null) {
            values = lastValues == null ? JsonCodec.MAPPER.createObjectNode() : tree(lastValues);
        }
        return values;
    }

    /**
     * What {@code runs/wait} answers: the last values, with {@code __interrupt__} when the run paused, or
     * {@code {"__error__": {...}}} when it failed.
     */
    ObjectNode answer() {
        ObjectNode out;
        if (error != null) {
            out = JsonCodec.MAPPER.createObjectNode();
            out.set("__error__", error);
            return out;
        }
        out = values() instanceof ObjectNode o ? o.deepCopy() : JsonCodec.MAPPER.createObjectNode();
        if (interrupts != null) {
            out.set("__interrupt__", interrupts);
        }
        return out;
    }

    private static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (Exception e) {
            return JsonCodec.MAPPER.createObjectNode(); // our own JSON: not reached
        }
    }
}
