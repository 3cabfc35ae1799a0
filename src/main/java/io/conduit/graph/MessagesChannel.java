package io.conduit.graph;

import com.fasterxml.jackson.databind.JavaType;
import io.conduit.kernel.Codec;
import io.conduit.kernel.JsonCodec;
import java.util.List;

/**
 * A list of identified items (chat messages): a write appends, replaces the item with the same id, or removes it
 * ({@link Removal}). Checkpoints store each step's writes, not the list, so a step costs the same at turn 400 as at
 * turn 1.
 */
public final class MessagesChannel<M extends Identified> extends Channel<MessageList<M>, M> {

    private final JsonCodec<M> itemCodec;
    private final JsonCodec<List<M>> listCodec;
    private final Codec<MessageList<M>> valueCodec;

    MessagesChannel(String name, Class<M> type) {
        super(name);
        this.itemCodec = JsonCodec.of(type);
        JavaType listType = JsonCodec.MAPPER.getTypeFactory().constructCollectionType(List.class, type);
        this.listCodec = JsonCodec.of(listType);
        this.valueCodec = new Codec<>() {
            @Override
            public String encode(MessageList<M> value) {
                return listCodec.encode(value.asList());
            }

            @Override
            public MessageList<M> decode(String json) {
                return MessageList.of(listCodec.decode(json));
            }

            @Override
            @SuppressWarnings("unchecked")
            public MessageList<M> fromLive(Object value) {
                return value instanceof MessageList<?> l ? (MessageList<M>) l : MessageList.of(listCodec.fromLive(value));
            }
        };
    }

    @Override
    public MessageList<M> empty() {
        return MessageList.empty();
    }

    @Override
    public MessageList<M> apply(MessageList<M> current, List<M> writes) {
        return current.with(writes);
    }

    @Override
    public boolean storesWrites() {
        return true;
    }

    @Override
    public Codec<MessageList<M>> valueCodec() {
        return valueCodec;
    }

    @Override
    public Codec<M> writeCodec() {
        return itemCodec;
    }

    @Override
    public Codec<List<M>> writesCodec() {
        return listCodec;
    }

    @Override
    public List<M> diff(MessageList<M> from, MessageList<M> to) {
        return to.changedSince(from);
    }

    @Override
    public int size(MessageList<M> value) {
        return value.size();
    }
}
