package io.conduit.graph;

import io.conduit.kernel.Codec;
import io.conduit.kernel.JsonCodec;
import java.util.List;
import java.util.function.BinaryOperator;

/** Folds each write into the value with a custom function, in task order. Checkpoints store the value. */
public final class ReducerChannel<T> extends Channel<T, T> {

    private final T initial;
    private final BinaryOperator<T> reducer;
    private final JsonCodec<T> codec;
    private final JsonCodec<List<T>> listCodec;

    ReducerChannel(String name, Class<T> type, T initial, BinaryOperator<T> reducer) {
        super(name);
        this.initial = initial;
        this.reducer = reducer;
        this.codec = JsonCodec.of(type);
        this.listCodec = JsonCodec.of(JsonCodec.MAPPER.getTypeFactory().constructCollectionType(List.class, type));
    }

    @Override
    public T empty() {
        return initial;
    }

    @Override
    public T apply(T current, List<T> writes) {
        T value = current;
        for (T w : writes) {
            value = reducer.apply(value, w);
        }
        return value;
    }

    @Override
    public Codec<T> valueCodec() {
        return codec;
    }

    @Override
    public Codec<T> writeCodec() {
        return codec;
    }

    @Override
    public Codec<List<T>> writesCodec() {
        return listCodec;
    }

    /** A custom reducer has no inverse: a subgraph's change to it is not handed back unless mapped explicitly. */
    @Override
    public List<T> diff(T from, T to) {
        return null;
    }
}
