package io.conduit.runs;

/**
 * PLACEHOLDER until branch p1 lands: the thread protocol's per-thread event logs ({@code RunEvent.data} is the whole
 * wire event). p1 provides the real bean and the translator that fills it.
 */
public final class ProtocolEventLogs {

    private final RunEventLogs logs;

    public ProtocolEventLogs(RunEventLogs logs) {
        this.logs = logs;
    }

    public ThreadEventLog log(String threadId) {
        return logs.log(threadId);
    }

    public ThreadEventLog find(String threadId) {
        return logs.find(threadId);
    }
}
