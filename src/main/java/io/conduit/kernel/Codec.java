package io.conduit.kernel;

/**
 * Turns one kind of value into JSON text and back. Every channel declares the codecs of its value and of its
 * writes, so a store can persist state without knowing the Java types behind it.
 */
public interface Codec<T> {

    String encode(T value);

    /** Parses JSON text; throws {@link IllegalArgumentException} when the text does not fit the type. */
    T decode(String json);

    /** Brings a live Java value (as written by a node) to this codec's type, converting if it is not one already. */
    T fromLive(Object value);
}
