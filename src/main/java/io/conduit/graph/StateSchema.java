package io.conduit.graph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The channels of a graph's state, in a fixed order. */
public final class StateSchema {

    private final List<Channel<?, ?>> channels;
    private final Map<String, Integer> index = new HashMap<>();

    private StateSchema(List<Channel<?, ?>> channels) {
        this.channels = List.copyOf(channels);
        for (int i = 0; i < this.channels.size(); i++) {
            if (index.put(this.channels.get(i).name(), i) != null) {
                throw new IllegalArgumentException("channel " + this.channels.get(i).name() + " is declared twice");
            }
        }
    }

    public static StateSchema of(Channel<?, ?>... channels) {
        return new StateSchema(List.of(channels));
    }

    public List<Channel<?, ?>> channels() {
        return channels;
    }

    /** The position of a channel, or -1. */
    public int indexOf(String name) {
        Integer i = index.get(name);
        return i == null ? -1 : i;
    }

    public Channel<?, ?> channel(String name) {
        int i = indexOf(name);
        return i < 0 ? null : channels.get(i);
    }

    public boolean has(Channel<?, ?> channel) {
        int i = indexOf(channel.name());
        return i >= 0 && channels.get(i) == channel;
    }

    /** The state before any write. */
    public State initialState() {
        Object[] values = new Object[channels.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = channels.get(i).empty();
        }
        return new State(this, values);
    }
}
