package io.conduit.bench.stream;

import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A chat user on the classic API: {@code POST /threads/{tid}/runs/stream} with stream mode messages-tuple, one
 * request per turn, read until the server ends the stream.
 */
final class ClassicSseConversation extends Conversation {
    private String threadId;
    private int turns;
    private HttpClientRequest request;

    ClassicSseConversation(Load load, boolean slow) {
        super(load, slow);
    }

    @Override
    void start() {
        load.createThread().onSuccess(tid -> {
            threadId = tid;
            turns = 0;
            turn();
        }).onFailure(e -> retryLater("create thread: " + e));
    }

    private void turn() {
        turns++;
        String body = new JsonObject().put("assistant_id", load.assistant)
                .put("input", new JsonObject().put("messages", new JsonArray()
                        .add(new JsonObject().put("role", "user").put("content", load.prompt))))
                .put("stream_mode", new JsonArray().add("messages-tuple"))
                // when the load stops, its runs stop too, so they do not weigh on the next phase
                .put("on_disconnect", "cancel").encode();
        load.http.request(load.post("/threads/" + threadId + "/runs/stream").putHeader("accept", "text/event-stream"))
                .compose(req -> {
                    request = req;
                    return req.send(body);
                })
                .onSuccess(this::read)
                .onFailure(e -> retryLater("runs/stream: " + e));
    }

    private void read(HttpClientResponse response) {
        if (response.statusCode() != 200) {
            response.body().onComplete(b -> retryLater("runs/stream " + response.statusCode() + " " + b.result()));
            return;
        }
        SseLines sse = new SseLines((event, data) -> {
            if (event.startsWith("messages")) {
                load.tally.tokenEvent(data, Tally.nowMicros(), slow);
            } else if (event.equals("error")) {
                load.tally.error("sse error event: " + data);
            }
        });
        response.handler(sse::feed);
        response.exceptionHandler(e -> {
            if (load.running) {
                load.tally.error("sse: " + e);
            }
        });
        response.endHandler(v -> {
            stopReadingSlowly();
            request = null;
            load.tally.conversations.increment();
            if (!load.running) {
                return;
            }
            if (turns < load.turnsPerThread) {
                turn();
            } else {
                load.deleteThread(threadId);
                start();
            }
        });
        readSlowly(response);
    }

    @Override
    void close() {
        stopReadingSlowly();
        HttpClientRequest req = request;
        request = null;
        if (req != null) {
            req.reset();
        }
    }
}
