package io.conduit.runs.cluster;

import io.conduit.runs.events.ClusterLink;

/** The threads' logs tied to the other replicas: watches go to {@link RemoteFrames}, runs here to {@link FrameRelay}. */
final class SharedLogs implements ClusterLink {

    private final FrameRelay relay;
    private final RemoteFrames remote;

    SharedLogs(FrameRelay relay, RemoteFrames remote) {
        this.relay = relay;
        this.remote = remote;
    }

    @Override
    public void watching(String threadId, String format) {
        remote.watching(threadId, format);
    }

    @Override
    public void unwatched(String threadId, String format) {
        remote.unwatched(threadId, format);
    }

    @Override
    public void began(String threadId) {
        relay.began(threadId);
    }

    @Override
    public void claimed(String threadId, String runId) {
        remote.claimedHere(threadId, runId);
    }

    @Override
    public void ended(String threadId, String runId) {
        relay.ended(threadId, runId);
    }

    @Override
    public void movedAway(String threadId) {
        remote.readAgain(threadId);
    }
}
