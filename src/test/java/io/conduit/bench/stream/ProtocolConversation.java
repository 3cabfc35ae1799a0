package io.conduit.bench.stream;

/**
 * A chat user on the thread protocol, whatever the transport: reads the protocol's frames, counts the text deltas,
 * and takes its next turn (or starts over on a new thread) when the root lifecycle says the run is over.
 */
abstract class ProtocolConversation extends Conversation {
    int turns;
    String threadId;
    String runId; // the run in flight, until its root lifecycle ends
    long commandId;
    private long turnStartMicros; // when the current turn's run.start was sent, until its first token arrives

    ProtocolConversation(Load load, boolean slow) {
        super(load, slow);
    }

    /** Starts the next run on the thread. */
    abstract void turn();

    void frame(String frame) {
        long now = Tally.nowMicros();
        switch (Load.classify(frame)) {
            case DELTA -> {
                if (turnStartMicros > 0) {
                    (slow ? load.tally.slowFirst : load.tally.first).record(now - turnStartMicros);
                    turnStartMicros = 0;
                }
                load.tally.tokenEvent(frame, now, slow);
            }
            case DONE -> finished();
            case FAILED -> {
                if (load.running) { // else: the end of a phase cancelled it
                    load.tally.error("run ended: " + frame);
                }
                finished();
            }
            case ERROR -> load.tally.error(frame);
            case OTHER -> {
                String started = Load.runIdOf(frame);
                if (started != null) {
                    runId = started;
                }
            }
        }
    }

    /** Marks the sending of a run.start, so its first token's wait is recorded. */
    void markTurnStart() {
        turnStartMicros = Tally.nowMicros();
    }

    private void finished() {
        runId = null;
        load.tally.conversations.increment();
        if (!load.running) {
            close();
        } else if (turns < load.turnsPerThread) {
            turn();
        } else {
            close(); // deletes the thread
            start();
        }
    }

    /**
     * Leaves the conversation's thread: cancels the run in flight, if any (a protocol run goes on without a reader),
     * and deletes the thread ({@link Load#leave}).
     */
    void leaveThread() {
        load.leave(threadId, runId);
        runId = null;
        threadId = null;
    }
}
