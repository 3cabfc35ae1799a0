package io.conduit.graph;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of a graph's channels at one point of a run. Immutable: applying a step makes a new state, and the
 * values themselves must be immutable (records, {@code List.copyOf}, {@link MessageList}).
 */
public final class State {

    private final StateSchema schema;
    private final Object[] values;

    State(StateSchema schema, Object[] values) {
        this.schema = schema;
        this.values = values;
    }

    public StateSchema schema() {
        return schema;
    }

    @SuppressWarnings("unchecked")
    public <V> V get(Channel<V, ?> channel) {
        int i = schema.indexOf(channel.name());
        if (i < 0) {
            throw new IllegalArgumentException("channel " + channel.name() + " is not part of this state");
        }
        return (V) values[i];
    }

    /** A channel's value by name, or null when there is no such channel. */
    public Object get(String name) {
        int i = schema.indexOf(name);
        return i < 0 ? null : values[i];
    }

    Object valueAt(int i) {
        return values[i];
    }

    State with(Object[] newValues) {
        return new State(schema, newValues);
    }

    Object[] copyValues() {
        return Arrays.copyOf(values, values.length);
    }

    /** Channel name to value, in schema order. */
    public Map<String, Object> asMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            map.put(schema.channels().get(i).name(), values[i]);
        }
        return map;
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
