package io.conduit.bench.stream;

import io.vertx.core.streams.ReadStream;

/**
 * One simulated chat user: takes turns while the load runs, each turn read to its end, and starts over on a new
 * thread after {@code turnsPerThread} turns. A slow user reads in short bursts between long pauses.
 */
abstract class Conversation {
    final Load load;
    final boolean slow;
    private long slowTimer = -1;
    private boolean closed;

    Conversation(Load load, boolean slow) {
        this.load = load;
        this.slow = slow;
    }

    abstract void start();

    /** Stops this conversation's connection; called once the load is over. */
    abstract void close();

    void again() {
        if (load.running) {
            start();
        }
    }

    /** After an error, wait a little so a failing server is not hammered in a loop. */
    void retryLater(String what) {
        if (load.running) {
            load.tally.error(what);
            load.vertx.setTimer(500, t -> again());
        }
    }

    void readSlowly(ReadStream<?> stream) {
        if (!slow) {
            return;
        }
        stream.pause();
        slowTimer = load.vertx.setPeriodic(load.slowPauseMillis + load.slowReadMillis, t -> {
            stream.resume();
            load.vertx.setTimer(load.slowReadMillis, u -> stream.pause());
        });
    }

    void stopReadingSlowly() {
        if (slowTimer >= 0) {
            load.vertx.cancelTimer(slowTimer);
            slowTimer = -1;
        }
    }
}
