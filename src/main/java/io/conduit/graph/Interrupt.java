package io.conduit.graph;

import java.util.Arrays;

/**
 * A pause waiting for a human: raised by {@code ctx.interrupt(payload)} in a node ({@link When#DURING}), or by a
 * static breakpoint ({@link When#BEFORE} or {@link When#AFTER} the node).
 *
 * @param id   stable across re-runs of the same task, so a client can answer it by id
 * @param when where the pause is; null reads as a node's own interrupt
 */
public record Interrupt(String id, Object value, String node, String taskId, When when) {

    /** Where a pause stands relative to its node; stored as its wire name inside the pending write. */
    public enum When {
        BEFORE("before"), AFTER("after"), DURING("during");

        private final String wire;

        When(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        /** Whether the pause is a static breakpoint, which a run passes rather than answers. */
        public boolean breakpoint() {
            return this != DURING;
        }

        /** The pause a stored name stands for; an unknown name is refused rather than guessed. */
        public static When of(String wire) {
            for (When w : values()) {
                if (w.wire.equals(wire)) {
                    return w;
                }
            }
            throw new IllegalArgumentException("unknown interrupt position: " + wire + " (known: "
                    + Arrays.stream(values()).map(When::wire).toList() + ")");
        }
    }

    /** Raised by a node's {@code interrupt()}, which a client answers; a static breakpoint is passed, not answered. */
    public boolean answerable() {
        return when == null || !when.breakpoint();
    }
}
