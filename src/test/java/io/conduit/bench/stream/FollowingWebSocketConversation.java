package io.conduit.bench.stream;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * A chat user whose socket is on one replica and whose runs start on another ({@code -Dbench.followUrl}): subscribes
 * to messages and lifecycle over WebSocket on the follower, waits for the subscription's answer (so the follower's
 * watch is recorded before the run emits), then sends each {@code run.start} to the owner over HTTP
 * ({@code POST /threads/{tid}/commands}); the owner executes the run and relays its frames to the follower through
 * the database. With the follower's URL equal to the owner's it is the same client on one replica: the baseline.
 * Each conversation has its own pair of replicas, so that a load can be spread over both.
 */
final class FollowingWebSocketConversation extends WebSocketConversation {
    private static final long SUBSCRIBE_ID = 1;
    private final Load.Replica owner;

    FollowingWebSocketConversation(Load load, boolean slow, Load.Replica owner, Load.Replica follower) {
        super(load, slow, follower);
        this.owner = owner;
    }

    @Override
    Future<String> newThread() {
        return load.createThread(owner);
    }

    @Override
    void opened() {
        commandId = SUBSCRIBE_ID;
        socket.writeTextMessage(load.subscribe(SUBSCRIBE_ID));
    }

    @Override
    void received(String frame) {
        if (turns == 0 && frame.startsWith("{\"type\":\"success\"") && frame.contains("\"id\":" + SUBSCRIBE_ID + ",")) {
            turn(); // subscribed: the follower watches the thread from now on
        } else {
            frame(frame);
        }
    }

    @Override
    void turn() {
        turns++;
        String tid = threadId;
        markTurnStart();
        load.http.request(load.post(owner, "/threads/" + tid + "/commands"))
                .compose(req -> req.send(load.runStart(++commandId)))
                .compose(load::jsonBody)
                .onSuccess(answer -> {
                    JsonObject result = answer.getJsonObject("result");
                    if (result == null || result.getString("run_id") == null) {
                        load.tally.error("run.start on the owner: " + answer.encode());
                    } else if (tid.equals(threadId) && socket != null) {
                        runId = result.getString("run_id");
                    } else {
                        load.cancel(owner, tid, result.getString("run_id")); // closed meanwhile
                    }
                })
                .onFailure(e -> retryLater("run.start on the owner: " + e));
    }
}
