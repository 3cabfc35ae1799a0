package io.conduit.runs.events;

/** The threads' logs ({@link ThreadLogs}) as one wire format reads them: what a transport of that format subscribes to. */
public class FormatLogs {

    private final ThreadLogs logs;
    private final int view;

    protected FormatLogs(ThreadLogs logs, String format) {
        this.logs = logs;
        this.view = logs.view(format);
    }

    /** The logs of every format. */
    public ThreadLogs entries() {
        return logs;
    }

    /** The thread's log, made if this process holds none (to subscribe before a run starts). */
    public ThreadEventLog log(String threadId) {
        return new ThreadEventLog(logs.log(threadId), view);
    }

    /** The thread's log if this process holds one, else null. */
    public ThreadEventLog find(String threadId) {
        ThreadLog log = logs.find(threadId);
        return log == null ? null : new ThreadEventLog(log, view);
    }
}
