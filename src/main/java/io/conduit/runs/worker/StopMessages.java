package io.conduit.runs.worker;

import io.conduit.runs.Run;
import io.conduit.runs.worker.RunExecutor.StopReason;

/** The classic {@code error} a stopped run's clients get: its code, and a message naming who stopped it. */
final class StopMessages {

    private StopMessages() {
    }

    static String stopCode(StopReason reason) {
        return reason == StopReason.ROLLBACK ? "UserRollback" : "UserInterrupt";
    }

    static String stopMessage(Run run, StopReason reason, String byRun) {
        String how = reason == StopReason.ROLLBACK ? "rolled back" : "interrupted";
        return byRun != null
                ? "run " + run.runId() + " was " + how + " by run " + byRun + " (multitask_strategy " + (reason == StopReason.ROLLBACK ? "rollback" : "interrupt") + ")"
                : "run " + run.runId() + " was " + how + " by a cancel request (action " + (reason == StopReason.ROLLBACK ? "rollback" : "interrupt") + ")";
    }
}
