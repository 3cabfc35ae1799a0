package io.conduit.graph;

import java.util.function.BinaryOperator;

/** Factories for the channel kinds. */
public final class Channels {

    private Channels() {
    }

    /** Holds the last value written; starts at {@code initial}. */
    public static <T> LastValueChannel<T> lastValue(String name, Class<T> type, T initial) {
        return new LastValueChannel<>(name, type, initial);
    }

    /** Appends by id, replaces by id, removes with a {@link Removal}: the reducer for conversation messages. */
    public static <M extends Identified> MessagesChannel<M> messages(String name, Class<M> type) {
        return new MessagesChannel<>(name, type);
    }

    /** Folds each write into the value with {@code reducer}; starts at {@code initial}. */
    public static <T> ReducerChannel<T> reduce(String name, Class<T> type, T initial, BinaryOperator<T> reducer) {
        return new ReducerChannel<>(name, type, initial, reducer);
    }
}
