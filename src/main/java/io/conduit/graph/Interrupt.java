package io.conduit.graph;

/**
 * A pause waiting for a human: raised by {@code ctx.interrupt(payload)} in a node, or by a static breakpoint
 * ({@code when} is {@code before} or {@code after}; {@code during} for a node's own interrupt).
 *
 * @param id stable across re-runs of the same task, so a client can answer it by id
 */
public record Interrupt(String id, Object value, String node, String taskId, String when) {

    /** Raised by a node's {@code interrupt()}, which a client answers; a static breakpoint is passed, not answered. */
    public boolean answerable() {
        return !"before".equals(when) && !"after".equals(when);
    }
}
