package io.conduit.checkpoint;

import io.conduit.kernel.Codec;

/**
 * A value as a checkpoint holds it: either live (the Java object a node wrote, kept by in-memory stores without
 * serializing) or as JSON text read back from a database. Decoding always goes through the reader's codec, so
 * both kinds of store hand the engine the same types.
 */
public sealed interface Stored {

    <T> T decode(Codec<T> codec);

    String json();

    static <T> Stored live(T value, Codec<T> codec) {
        return new Live<>(value, codec);
    }

    static Stored json(String text) {
        return new Json(text);
    }

    /** A value still in memory; its JSON is produced once, on demand. */
    final class Live<T> implements Stored {
        private final T value;
        private final Codec<T> codec;
        private String json;

        private Live(T value, Codec<T> codec) {
            this.value = value;
            this.codec = codec;
        }

        public T value() {
            return value;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <R> R decode(Codec<R> reader) {
            // the common case, a store handing back what the same channel wrote: no conversion at all
            return reader == codec ? (R) value : reader.fromLive(value);
        }

        @Override
        public String json() {
            String j = json;
            if (j == null) {
                json = j = codec.encode(value);
            }
            return j;
        }

        @Override
        public String toString() {
            return String.valueOf(value);
        }
    }

    /** JSON text read from a store. */
    record Json(String text) implements Stored {
        @Override
        public <R> R decode(Codec<R> reader) {
            return reader.decode(text);
        }

        @Override
        public String json() {
            return text;
        }
    }
}
