package io.conduit.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * One user of the soak, on a virtual thread, conversation after conversation until the soak ends: a thread and a run
 * created on one replica, followed on the other (mostly) or the same one, read to {@code end}; then, for some threads,
 * a second turn, and for some a deletion. Each stream is checked: ids strictly increasing (else a token repeated) and,
 * per AI message, the text joined from its {@code messages} chunks equal to that message in the thread's final state,
 * and every new AI reply of the state streamed (else tokens lost).
 */
final class SoakConversation implements Runnable {
    static final String MODES = URLEncoder.encode("[\"messages-tuple\",\"values\"]", StandardCharsets.UTF_8);
    private static final Duration STREAM_WAIT = Duration.ofMinutes(3);
    /** A run takes seconds: a stream still without its end after this is stuck (its missing tokens count as lost). */
    private static final Duration STUCK = Duration.ofSeconds(Integer.getInteger("soak.stuckSeconds", 90));
    private static final List<String> PROMPTS = List.of("Please plan my week", "What is 2+2?",
            "Tell me about the history of lighthouses", "Summarise the benefits of walking");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SoakSettings settings;
    private final HttpClient http;
    private final SoakCounts counts;
    private final RunHolders holders;
    private final BooleanSupplier running;

    SoakConversation(SoakSettings settings, HttpClient http, SoakCounts counts, RunHolders holders, BooleanSupplier running) {
        this.settings = settings;
        this.http = http;
        this.counts = counts;
        this.holders = holders;
        this.running = running;
    }

    @Override
    public void run() {
        while (running.getAsBoolean()) {
            try {
                converse();
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (running.getAsBoolean()) {
                    counts.errors.increment();
                    counts.fault("error", e.toString());
                    pause();
                }
            }
        }
    }

    private void converse() throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int creatorIndex = random.nextInt(2);
        String creator = settings.urls().get(creatorIndex);
        String follower = random.nextDouble() < settings.otherReplica() ? settings.urls().get(1 - creatorIndex) : creator;
        String thread = send("POST", creator + "/threads", "{}").get("thread_id").asText();
        // a thread made on one replica and run on it or the other: the run goes to whichever claims it first
        int turns = random.nextDouble() < settings.secondTurn() ? 2 : 1;
        Set<String> before = new HashSet<>();
        for (int turn = 1; turn <= turns && running.getAsBoolean(); turn++) {
            before = turn(creator, follower, thread, before);
            if (turn == 2) {
                counts.secondTurns.increment();
            }
        }
        counts.conversations.increment();
        if (random.nextDouble() < settings.delete()) {
            send("DELETE", creator + "/threads/" + thread, null);
            counts.deletions.increment();
        }
    }

    /**
     * One run, created on {@code creator} and followed on {@code follower}; {@code before} are the ids of the AI
     * messages the thread had before it. Returns those it has after.
     */
    private Set<String> turn(String creator, String follower, String thread, Set<String> before) throws Exception {
        String prompt = PROMPTS.get(ThreadLocalRandom.current().nextInt(PROMPTS.size()));
        String body = JSON.writeValueAsString(Map.of("assistant_id", "agent", "multitask_strategy", "enqueue",
                "stream_mode", List.of("messages-tuple", "values"),
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", prompt)))));
        String runId = send("POST", creator + "/threads/" + thread + "/runs", body).get("run_id").asText();
        counts.runs.increment();
        HttpRequest follow = HttpRequest.newBuilder(URI.create(follower + "/threads/" + thread + "/runs/" + runId + "/stream?stream_mode=" + MODES))
                .timeout(STREAM_WAIT).header("accept", "text/event-stream").GET().build();
        HttpResponse<Stream<String>> response = http.send(follow, HttpResponse.BodyHandlers.ofLines());
        Map<String, StringBuilder> texts = new LinkedHashMap<>();
        String where = follower + " run " + runId + " thread " + thread;
        boolean ended = false;
        StringBuilder seen = new StringBuilder(); // the events' names, for the report of a stream with no text
        java.util.ArrayDeque<String> last = new java.util.ArrayDeque<>(); // and the last few, for a stream cut short
        try (Stream<String> lines = response.body()) {
            if (response.statusCode() != 200) {
                throw new IllegalStateException("stream " + response.statusCode() + " " + String.join("\n", lines.toList()) + " " + where);
            }
            long lastId = -1;
            SseEvents events = new SseEvents(lines, System.nanoTime() + STUCK.toNanos());
            while (events.hasNext()) {
                SseEvents.Event e = events.next();
                if (seen.length() < 300) {
                    seen.append(e.name()).append(' ').append(e.id()).append(", ");
                }
                last.addLast(e.name() + " " + e.id());
                if (last.size() > 8) {
                    last.removeFirst();
                }
                if (e.id() >= 0) {
                    if (e.id() <= lastId) {
                        counts.repeated.increment();
                        counts.fault("repeated", "id " + e.id() + " after " + lastId + " (" + e.name() + ") on " + where);
                    }
                    lastId = Math.max(lastId, e.id());
                }
                switch (e.name()) {
                    case "messages" -> chunk(JSON.readTree(e.data()), texts);
                    case "error" -> throw new IllegalStateException("error event " + e.data() + " on " + where);
                    case "end" -> ended = true;
                    default -> { }
                }
                if (ended) {
                    break;
                }
            }
            if (events.timedOut()) {
                counts.stuck.increment();
                counts.fault("stuck", "no end after " + STUCK + " on " + where + " created on " + creator + " events: " + seen);
            } else if (!ended) {
                throw new IllegalStateException("the stream closed without end on " + where);
            }
        }
        if (holders.elsewhere(runId, follower)) {
            counts.crossReplica.increment();
        }
        return check(creator, thread, texts, before, where + " events: " + seen + " ... the last: " + last);
    }

    /** The text of an AI message chunk (or of an AI message sent whole), joined per message id. */
    private void chunk(JsonNode tuple, Map<String, StringBuilder> texts) {
        JsonNode message = tuple.path(0);
        String type = message.path("type").asText();
        if (!type.equals("AIMessageChunk") && !type.equals("ai")) {
            return;
        }
        String text = text(message.path("content"));
        if (!text.isEmpty() || !texts.containsKey(message.path("id").asText())) {
            texts.computeIfAbsent(message.path("id").asText(), k -> new StringBuilder()).append(text);
        }
        if (!text.isEmpty()) {
            counts.tokens.increment();
        }
    }

    /**
     * Compares what was streamed with the final state: every AI message streamed with its text, and no new AI message
     * with text left unstreamed. The state is read again once before a difference counts as lost. Returns the state's
     * AI message ids.
     */
    private Set<String> check(String creator, String thread, Map<String, StringBuilder> texts, Set<String> before,
                              String where) throws Exception {
        texts.values().removeIf(t -> t.isEmpty()); // tool-call chunks: no text to compare
        if (texts.isEmpty()) {
            counts.emptyStreams.increment();
            counts.fault("empty", "no AI text streamed on " + where);
        }
        Map<String, String> state = aiTexts(creator, thread);
        if (differs(texts, state, before) != null) {
            pause();
            state = aiTexts(creator, thread);
            String id = differs(texts, state, before);
            if (id != null) {
                counts.lost.increment();
                counts.fault("lost", "message " + id + " on " + where + "\n streamed: " + texts.get(id) + "\n state:    " + state.get(id));
                counts.messagesChecked.add(texts.size());
                return state.keySet();
            }
            counts.lateState.increment();
        }
        counts.messagesChecked.add(texts.size());
        return state.keySet();
    }

    /** The first message whose streamed text is not the state's, or null. */
    private static String differs(Map<String, StringBuilder> streamed, Map<String, String> state, Set<String> before) {
        for (Map.Entry<String, StringBuilder> e : streamed.entrySet()) {
            if (!e.getValue().toString().equals(state.get(e.getKey()))) {
                return e.getKey();
            }
        }
        for (Map.Entry<String, String> e : state.entrySet()) {
            if (!before.contains(e.getKey()) && !e.getValue().isEmpty() && !streamed.containsKey(e.getKey())) {
                return e.getKey(); // a reply of this turn the stream never carried
            }
        }
        return null;
    }

    private Map<String, String> aiTexts(String base, String thread) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode m : send("GET", base + "/threads/" + thread + "/state", null).path("values").path("messages")) {
            if (m.path("type").asText().equals("ai")) {
                out.put(m.path("id").asText(), text(m.path("content")));
            }
        }
        return out;
    }

    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder b = new StringBuilder();
        for (JsonNode block : content) {
            if (block.isTextual()) {
                b.append(block.asText());
            } else if (block.path("type").asText().equals("text")) {
                b.append(block.path("text").asText());
            }
        }
        return b.toString();
    }

    private JsonNode send(String method, String url, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + url + " " + r.statusCode() + " " + r.body());
        }
        return r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
    }

    private static void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
