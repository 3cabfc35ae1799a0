package io.conduit.bench.stream;

import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A chat user on the thread protocol over HTTP: one {@code POST /threads/{tid}/stream/events} subscription to
 * messages and lifecycle that stays open between runs, and each turn's {@code run.start} sent to
 * {@code POST /threads/{tid}/commands}.
 */
final class ThreadSseConversation extends ProtocolConversation {
    private HttpClientRequest stream;

    ThreadSseConversation(Load load, boolean slow) {
        super(load, slow);
    }

    @Override
    void start() {
        load.createThread().onSuccess(tid -> {
            threadId = tid;
            turns = 0;
            commandId = 0;
            subscribe();
        }).onFailure(e -> retryLater("create thread: " + e));
    }

    private void subscribe() {
        String body = new JsonObject().put("channels", new JsonArray().add("messages").add("lifecycle")).encode();
        load.http.request(load.post("/threads/" + threadId + "/stream/events").putHeader("accept", "text/event-stream"))
                .compose(req -> {
                    stream = req;
                    return req.send(body);
                })
                .onSuccess(this::read)
                .onFailure(e -> retryLater("stream/events: " + e));
    }

    private void read(HttpClientResponse response) {
        if (response.statusCode() != 200) {
            response.body().onComplete(b -> retryLater("stream/events " + response.statusCode() + " " + b.result()));
            return;
        }
        HttpClientRequest mine = stream;
        response.handler(new SseLines((event, data) -> frame(data))::feed);
        response.exceptionHandler(e -> {
            if (stream == mine && load.running) {
                load.tally.error("stream/events: " + e);
            }
        });
        response.endHandler(v -> {
            stopReadingSlowly();
            if (stream == mine) {
                stream = null;
                retryLater("stream/events ended by the server");
            }
        });
        readSlowly(response);
        turn();
    }

    @Override
    void turn() {
        turns++;
        load.http.request(load.post("/threads/" + threadId + "/commands"))
                .compose(req -> req.send(load.runStart(++commandId)))
                .compose(load::jsonBody)
                .onSuccess(answer -> {
                    if (!"success".equals(answer.getString("type"))) {
                        load.tally.error("run.start: " + answer.encode());
                    } else if (answer.getJsonObject("result") != null) {
                        runId = answer.getJsonObject("result").getString("run_id");
                    }
                })
                .onFailure(e -> load.tally.error("commands: " + e));
    }

    @Override
    void close() {
        stopReadingSlowly();
        HttpClientRequest req = stream;
        stream = null;
        leaveThread();
        if (req != null) {
            req.reset();
        }
    }
}
