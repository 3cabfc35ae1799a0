package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.conduit.kernel.JsonCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The retrieval service and the course-guide service a test's tutor calls, on a port of their own:
 * {@code POST /search} answers one passage per query (with metadata), except that a query containing "slow" is never
 * answered; {@code GET /guides/{subject}} answers the subject's guide. Every search body is kept.
 */
final class StubRetrieval implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final List<JsonNode> searches = new CopyOnWriteArrayList<>();
    private final List<HttpExchange> held = new CopyOnWriteArrayList<>();

    StubRetrieval() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(workers);
        server.createContext("/search", this::search);
        server.createContext("/guides/", this::guide);
        server.start();
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The config a tutor needs to use this stub. */
    Map<String, String> config() {
        return Map.of("conduit.blueprints.tutor.retrieval.url", base() + "/search",
                "conduit.blueprints.tutor.retrieval.timeout", "1s",
                "conduit.blueprints.tutor.retrieval.max-attempts", "1",
                "conduit.blueprints.tutor.guide.source", "http",
                "conduit.blueprints.tutor.guide.url", base() + "/guides/{subject}",
                "conduit.tools.private-addresses", "127.0.0.1");
    }

    List<JsonNode> searches() {
        return searches;
    }

    private void search(HttpExchange ex) throws IOException {
        JsonNode body = JsonCodec.MAPPER.readTree(ex.getRequestBody().readAllBytes());
        searches.add(body);
        String query = body.path("query").asText();
        if (query.contains("slow")) {
            held.add(ex); // never answered: the tutor's timeout has to end the call
            return;
        }
        String slug = query.replaceAll("[^a-z]+", "-");
        Map<String, Object> passage = Map.of("id", "p-" + slug, "text", "Course notes on " + query + ": chlorophyll absorbs light.",
                "source", "chapter-3.pdf", "score", 0.87, "metadata", Map.of("page", 12, "subject", body.path("subject").asText()));
        send(ex, 200, JsonCodec.MAPPER.writeValueAsString(Map.of("results", List.of(passage))));
    }

    private void guide(HttpExchange ex) throws IOException {
        String subject = ex.getRequestURI().getPath().substring("/guides/".length());
        send(ex, 200, "Guide for " + subject + ": start from what the student can observe.");
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    @Override
    public void close() {
        held.forEach(HttpExchange::close);
        server.stop(0);
        workers.shutdownNow();
    }
}
