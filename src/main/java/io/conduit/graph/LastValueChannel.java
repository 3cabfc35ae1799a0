package io.conduit.graph;

import io.conduit.kernel.Codec;
import io.conduit.kernel.JsonCodec;
import java.util.List;
import java.util.Objects;

/** Holds the last value written. When parallel tasks write it in one step, the last task in task order wins. */
public final class LastValueChannel<T> extends Channel<T, T> {

    private final T initial;
    private final JsonCodec<T> codec;
    private final JsonCodec<List<T>> listCodec;

    LastValueChannel(String name, Class<T> type, T initial) {
        super(name);
        this.initial = initial;
        this.codec = JsonCodec.of(type);
        this.listCodec = JsonCodec.of(JsonCodec.MAPPER.getTypeFactory().constructCollectionType(List.class, type));
    }

    @Override
    public T empty() {
        return initial;
    }

    @Override
    public T apply(T current, List<T> writes) {
        return writes.isEmpty() ? current : writes.get(writes.size() - 1);
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

    @Override
    public List<T> diff(T from, T to) {
        return Objects.equals(from, to) ? List.of() : java.util.Collections.singletonList(to);
    }
}
