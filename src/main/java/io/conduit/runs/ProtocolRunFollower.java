package io.conduit.runs;

/**
 * One run's events in its thread's protocol log, for a front door that streams a single run (AG-UI, the AI SDK's
 * stream): the thread's events after a seq, the run's alone, then live, ended by the run's root terminal event. The
 * seq is read before the run is submitted, because a run's protocol segment opens only when it starts. A run whose
 * protocol end never comes (stopped before it started) is ended by the classic log's end of the run, with a
 * {@link #STOPPED} event first (its data says why) so the front door can close what it opened.
 */
public final class ProtocolRunFollower implements RunEventListener {

    /** Not a protocol method: the run ended without a protocol end of its own. */
    public static final String STOPPED = "run.stopped";

    private final String runId;
    private final RunEventListener sink;
    private boolean ended;

    private ProtocolRunFollower(String runId, RunEventListener sink) {
        this.runId = runId;
        this.sink = sink;
    }

    /**
     * Feeds {@code sink} the run's protocol events after {@code afterSeq}, then ends it when the run ends; returns what
     * stops following (call it when the client goes).
     */
    public static Runnable follow(ProtocolEventLogs protocol, RunEventLogs classic, Run run, long afterSeq, RunEventListener sink) {
        ProtocolRunFollower f = new ProtocolRunFollower(run.runId(), sink);
        ThreadEventLog.Subscription events = protocol.log(run.threadId()).subscribeThread(afterSeq, f);
        // the classic log ends a run after the protocol log does: only a run the protocol never saw end is stopped here
        ThreadEventLog.Subscription end = classic.log(run.threadId()).subscribeRun(run.runId(), Long.MAX_VALUE, new RunEventListener() {
            private String why = "the run was stopped before it started";

            @Override
            public void onEvent(RunEvent e) {
                if ("error".equals(e.mode())) { // who stopped it (a newer run, a cancel): said by the classic error before the end
                    why = messageOf(e.data(), why);
                }
            }

            @Override
            public void onEnd() {
                f.stop(why);
            }
        });
        // null: this process has not started the run yet (its segment opens then), and its protocol end will end it
        return () -> {
            events.cancel();
            if (end != null) {
                end.cancel();
            }
        };
    }

    private static String messageOf(String errorJson, String otherwise) {
        try {
            return io.conduit.checkpoint.JsonCodec.MAPPER.readTree(errorJson).path("message").asText(otherwise);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return otherwise;
        }
    }

    @Override
    public synchronized void onEvent(RunEvent e) {
        if (!ended && runId.equals(e.runId())) {
            sink.onEvent(e);
            endAt(e);
        }
    }

    @Override
    public synchronized void onReplay(RunEvent e) {
        if (!ended && runId.equals(e.runId())) {
            sink.onReplay(e);
            endAt(e);
        }
    }

    /** The thread's log closed (a thread is deleted only when no run is in flight: defensive). */
    @Override
    public void onEnd() {
        stop("the thread's event log closed");
    }

    private synchronized void stop(String why) {
        if (!ended) {
            ended = true;
            sink.onEvent(new RunEvent(Long.MAX_VALUE, runId, STOPPED, "", why));
            sink.onEnd();
        }
    }

    private void endAt(RunEvent e) {
        if ("lifecycle".equals(e.mode()) && e.terminal()) { // not the notice of a replay that lost events ("error")
            ended = true;
            sink.onEnd();
        }
    }
}
