package io.conduit.blueprints.request;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP service that takes requests and never answers, started before Quarkus so the HTTP tool {@code slow_lookup}
 * can point at it: what a stuck backend looks like to a tool.
 */
public class HangingLookupService implements QuarkusTestResourceLifecycleManager {

    private HttpServer server;
    private final List<HttpExchange> held = new CopyOnWriteArrayList<>();

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", held::add); // no answer: the exchange stays open until stop
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String tool = "conduit.tools.http.slow_lookup.";
        return Map.of(
                "conduit.tools.http-allowed-hosts", "127.0.0.1",
                "conduit.tools.private-addresses", "127.0.0.1",
                tool + "url", "http://127.0.0.1:" + server.getAddress().getPort() + "/lookup/{q}",
                tool + "description", "Looks a thing up",
                tool + "schema", "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}");
    }

    @Override
    public void stop() {
        held.forEach(HttpExchange::close);
        if (server != null) {
            server.stop(0);
        }
    }
}
