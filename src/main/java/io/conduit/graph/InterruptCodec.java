package io.conduit.graph;

import io.conduit.kernel.Codec;
import io.conduit.kernel.JsonCodec;

/**
 * Stores an {@link Interrupt} in a pending write with the JSON it has always had: its fields in record order, its
 * {@code when} by wire name ({@code "when":"during"}). The engine's types carry no Jackson annotations, so the
 * mapping between the enum and the stored text lives here, where the JSON is written and read.
 */
final class InterruptCodec implements Codec<Interrupt> {

    /** The stored shape: {@link Interrupt}'s components in its order, with {@code when} as text. */
    private record Shape(String id, Object value, String node, String taskId, String when) {
    }

    private static final JsonCodec<Shape> JSON = JsonCodec.of(Shape.class);

    @Override
    public String encode(Interrupt i) {
        return JSON.encode(new Shape(i.id(), i.value(), i.node(), i.taskId(), i.when() == null ? null : i.when().wire()));
    }

    /** Throws {@link IllegalArgumentException} for text that is not an interrupt or names an unknown {@code when}. */
    @Override
    public Interrupt decode(String json) {
        return interrupt(JSON.decode(json));
    }

    @Override
    public Interrupt fromLive(Object value) {
        return value instanceof Interrupt i ? i : interrupt(JSON.fromLive(value));
    }

    private static Interrupt interrupt(Shape s) {
        return new Interrupt(s.id(), s.value(), s.node(), s.taskId(), s.when() == null ? null : Interrupt.When.of(s.when()));
    }
}
