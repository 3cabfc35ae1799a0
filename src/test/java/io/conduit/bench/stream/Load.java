package io.conduit.bench.stream;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** What every conversation shares: the clients, the settings, and the tally of the current phase. */
final class Load {
    private static final boolean DELETE_THREADS = Boolean.parseBoolean(System.getProperty("bench.deleteThreads", "true"));

    final Vertx vertx;
    final HttpClient http;
    final WebSocketClient ws;
    final String host;
    final int port;
    /** Where conversations that follow another replica start their runs (bench.url) and subscribe (bench.followUrl). */
    final java.util.List<Replica> owners;
    final java.util.List<Replica> followers;
    final String assistant;
    final String prompt;
    final int turnsPerThread;
    final long slowPauseMillis;
    final long slowReadMillis;
    volatile Tally tally = new Tally();
    volatile boolean running = true;

    Load(Vertx vertx, HttpClient http, WebSocketClient ws, String host, int port, java.util.List<Replica> owners, java.util.List<Replica> followers,
            String assistant, String prompt, int turnsPerThread, long slowPauseMillis, long slowReadMillis) {
        this.vertx = vertx;
        this.http = http;
        this.ws = ws;
        this.host = host;
        this.port = port;
        this.owners = owners;
        this.followers = followers;
        this.assistant = assistant;
        this.prompt = prompt;
        this.turnsPerThread = turnsPerThread;
        this.slowPauseMillis = slowPauseMillis;
        this.slowReadMillis = slowReadMillis;
    }

    RequestOptions post(String path) {
        return post(new Replica(host, port), path);
    }

    RequestOptions post(Replica to, String path) {
        return new RequestOptions().setMethod(HttpMethod.POST).setHost(to.host()).setPort(to.port()).setURI(path)
                .putHeader("content-type", "application/json");
    }

    /** A replica of the server under load, by its host and port. */
    record Replica(String host, int port) {
        static Replica of(java.net.URI uri) {
            return new Replica(uri.getHost(), uri.getPort());
        }
    }

    Future<String> createThread() {
        return createThread(new Replica(host, port));
    }

    Future<String> createThread(Replica on) {
        return http.request(post(on, "/threads"))
                .compose(req -> req.send("{}"))
                .compose(this::jsonBody)
                .map(json -> json.getString("thread_id"));
    }

    Future<JsonObject> jsonBody(HttpClientResponse response) {
        return response.body().compose(body -> response.statusCode() / 100 == 2
                ? Future.succeededFuture(body.toJsonObject())
                : Future.failedFuture(response.statusCode() + " " + body));
    }

    /** Cancels a run through the classic endpoint (the thread protocol's runs go on without a reader). */
    void cancel(Replica on, String threadId, String runId) {
        send(post(on, "/threads/" + threadId + "/runs/" + runId + "/cancel")); // a run that ended meanwhile answers 404: fine
    }

    /**
     * A conversation leaves its thread, finished or at the end of a phase: its run in flight (if any) is cancelled and
     * waited for, then the thread is deleted. Else each phase would leave up to a phase's worth of threads, with their
     * checkpoints and logs, in the in-memory store, and later phases would measure G1 marking a growing heap.
     */
    void leave(String threadId, String runId) {
        if (threadId == null) {
            return;
        }
        Future<Integer> stopped = runId == null ? Future.succeededFuture(200)
                : send(post("/threads/" + threadId + "/runs/" + runId + "/cancel?wait=1"));
        stopped.onComplete(r -> deleteThread(threadId)); // a run that ended meanwhile answers 404: delete all the same
    }

    /**
     * Deletes a finished conversation's thread (unless {@code -Dbench.deleteThreads=false}): the in-memory store would
     * otherwise keep every thread of the run, and later phases would measure a heap filling up, not the relay.
     */
    void deleteThread(String threadId) {
        if (!DELETE_THREADS || threadId == null) {
            return;
        }
        RequestOptions delete = new RequestOptions().setMethod(HttpMethod.DELETE).setHost(host).setPort(port).setURI("/threads/" + threadId);
        send(delete)
                // busy: a run whose id the conversation had not learnt yet (its run.start unanswered at a phase's end)
                .compose(status -> status == 409 ? stopRuns(threadId).compose(v -> send(delete)) : Future.succeededFuture(status))
                .onComplete(r -> {
                    if (r.failed() || r.result() / 100 != 2) {
                        tally.error("delete thread: " + (r.failed() ? r.cause() : r.result()));
                    }
                });
    }

    /** Cancels every run of the thread still pending or running, and waits until they stopped. */
    private Future<Void> stopRuns(String threadId) {
        return http.request(new RequestOptions().setHost(host).setPort(port).setURI("/threads/" + threadId + "/runs"))
                .compose(HttpClientRequest::send)
                .compose(HttpClientResponse::body)
                .compose(body -> {
                    List<Future<Integer>> stops = new ArrayList<>();
                    for (Object o : body.toJsonArray()) {
                        JsonObject run = (JsonObject) o;
                        if (List.of("pending", "running").contains(run.getString("status"))) {
                            stops.add(send(post("/threads/" + threadId + "/runs/" + run.getString("run_id") + "/cancel?wait=1")));
                        }
                    }
                    return Future.join(stops).mapEmpty();
                });
    }

    /** Sends a request without a body and reads its answer to the end; its status code. */
    private Future<Integer> send(RequestOptions request) {
        return http.request(request)
                .compose(HttpClientRequest::send)
                .compose(response -> response.body().map(body -> response.statusCode()));
    }

    /** The run id in a run.start answer, or null. */
    static String runIdOf(String frame) {
        if (!frame.startsWith("{\"type\":\"success\"") || !frame.contains("\"run_id\"")) {
            return null;
        }
        JsonObject result = new JsonObject(frame).getJsonObject("result");
        return result == null ? null : result.getString("run_id");
    }

    /** The thread protocol's run.start command. */
    String runStart(long id) {
        return new JsonObject().put("id", id).put("method", "run.start").put("params", new JsonObject()
                .put("assistant_id", assistant)
                .put("input", new JsonObject().put("messages", new JsonArray()
                        .add(new JsonObject().put("type", "human").put("content", prompt))))).encode();
    }

    String subscribe(long id) {
        return new JsonObject().put("id", id).put("method", "subscription.subscribe").put("params",
                new JsonObject().put("channels", new JsonArray().add("messages").add("lifecycle"))).encode();
    }

    /**
     * What a thread-protocol event frame means to the load: a text delta, the root's terminal lifecycle event
     * (completed or otherwise), or something else. Only frames that are neither deltas nor lifecycle are parsed
     * whole, so the client spends little per token.
     */
    enum Frame { DELTA, DONE, FAILED, ERROR, OTHER }

    static Frame classify(String frame) {
        if (frame.contains("\"content-block-delta\"")) {
            return Frame.DELTA;
        }
        if (frame.contains("\"lifecycle\"")) {
            JsonObject json = new JsonObject(frame);
            JsonObject params = json.getJsonObject("params");
            if (!"lifecycle".equals(json.getString("method")) || params == null
                    || !params.getJsonArray("namespace", new JsonArray()).isEmpty()) {
                return Frame.OTHER;
            }
            String event = params.getJsonObject("data", new JsonObject()).getString("event");
            return "completed".equals(event) ? Frame.DONE
                    : "failed".equals(event) || "interrupted".equals(event) ? Frame.FAILED : Frame.OTHER;
        }
        if (frame.startsWith("{\"type\":\"error\"") || frame.contains("\"type\":\"error\"")) {
            return Frame.ERROR;
        }
        return Frame.OTHER;
    }
}
