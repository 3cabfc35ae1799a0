package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HTTP tools against a real HTTP server started by the test. */
class HttpToolTest {

    static final String TOKEN = "Bearer s3cret-key-42";
    static final String SCHEMA = """
            {"type":"object","properties":{"topic":{"type":"string"},"level":{"type":"integer"},"host":{"type":"string"},\
            "user_id":{"type":"string"}},"required":["topic"]}""";

    record Config(String url, String method, String description, String schema, Optional<List<String>> injected,
                  Optional<Duration> timeout, Map<String, String> headers, int maxResponseChars) implements ToolsConfig.HttpToolConfig {

        Config(String url, String method) {
            this(url, method, "course guide", SCHEMA, Optional.empty(), Optional.empty(),
                    Map.of("Authorization", TOKEN, "Accept", "application/json"), 8000);
        }

        Config maxResponseChars(int max) {
            return new Config(url, method, description, schema, injected, timeout, headers, max);
        }

        Config injecting(String name) {
            return new Config(url, method, description, schema, Optional.of(List.of(name)), timeout, headers, maxResponseChars);
        }
    }

    HttpServer server;
    final List<String> seen = new CopyOnWriteArrayList<>();
    final AtomicInteger flaky = new AtomicInteger();
    final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        seen.add(exchange.getRequestMethod() + " " + path + (query == null ? "" : "?" + query)
                + (body.isEmpty() ? "" : " " + body + " (" + exchange.getRequestHeaders().getFirst("Content-Type") + ")"));
        if (path.startsWith("/status/")) {
            reply(exchange, Integer.parseInt(path.substring("/status/".length())), "status page, token " + TOKEN);
        } else if (path.equals("/flaky")) {
            reply(exchange, flaky.incrementAndGet() < 3 ? 503 : 200, "answer after " + flaky.get() + " tries");
        } else if (path.equals("/big")) {
            reply(exchange, 200, "0123456789".repeat(100_000));
        } else if (path.equals("/redirect")) {
            exchange.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data");
            reply(exchange, 302, "");
        } else {
            // echoes what it received, the credential included: the tool must hide it from the model
            reply(exchange, 200, "guide for " + path + " auth=" + exchange.getRequestHeaders().getFirst("Authorization"));
        }
    }

    private static void reply(HttpExchange exchange, int status, String text) throws IOException {
        byte[] out = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            exchange.getResponseBody().write(out);
        }
        exchange.close();
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    HttpTool tool(String name, ToolsConfig.HttpToolConfig config) {
        return new HttpTool(name, config, List.of("127.0.0.1"), ReachableAddresses.publicAnd(List.of("127.0.0.1")), client, Duration.ofSeconds(5));
    }

    /** Called as the service calls it: through the executor, with the tool's secrets redacted. */
    ToolOutcome call(HttpTool tool, String args) {
        return call(tool, args, ToolExecutors.SCOPE);
    }

    ToolOutcome call(HttpTool tool, String args, ToolScope scope) {
        ToolExecutor ex = ToolExecutors.of(ToolExecutors.POLICY, new Redactor(List.of(), tool.secrets()), tool);
        return ToolExecutors.call(ex, tool.name(), args, scope);
    }

    @Test
    void getFillsTheTemplateUrlEncodedAndTheCredentialIsSentButNeverShown() {
        ToolOutcome o = call(tool("guide", new Config(base() + "/guides/{topic}?level={level}", "GET")), "{\"topic\":\"linear algebra/2\",\"level\":2}");
        assertThat(o.error()).isFalse();
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(seen).containsExactly("GET /guides/linear%20algebra%2F2?level=2");
        assertThat(o.content()).isEqualTo("HTTP 200\nguide for /guides/linear%20algebra%2F2 auth=[REDACTED]");
    }

    @Test
    void postSendsTheArgumentsNotInTheUrlAsJson() {
        ToolOutcome o = call(tool("search", new Config(base() + "/search/{topic}", "POST")), "{\"topic\":\"calculus\",\"level\":2}");
        assertThat(o.error()).isFalse();
        assertThat(seen).containsExactly("POST /search/calculus {\"level\":2} (application/json)");
    }

    @Test
    void anInjectedArgumentFillsTheUrlFromTheRun() {
        HttpTool plan = tool("plan", new Config(base() + "/users/{user_id}/plan?topic={topic}", "GET").injecting("user_id"));
        assertThat(call(plan, "{\"topic\":\"x\",\"user_id\":\"mallory\"}").error()).isFalse();
        assertThat(seen).containsExactly("GET /users/ada/plan?topic=x");
    }

    @Test
    void serverErrorsAreRetriedThenReportedWithTheStatus() {
        ToolOutcome o = call(tool("guide", new Config(base() + "/status/500", "GET")), "{\"topic\":\"x\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(3);
        assertThat(seen).hasSize(3);
        assertThat(o.content()).isEqualTo("guide failed after 3 attempts: HTTP 500: status page, token [REDACTED]");
    }

    @Test
    void aServiceThatRecoversWithinTheAttemptsGivesItsAnswer() {
        ToolOutcome o = call(tool("guide", new Config(base() + "/flaky", "GET")), "{\"topic\":\"x\"}");
        assertThat(o.error()).isFalse();
        assertThat(o.attempts()).isEqualTo(3);
        assertThat(o.content()).isEqualTo("HTTP 200\nanswer after 3 tries");
    }

    @Test
    void tooManyRequestsIsRetriedButOtherClientErrorsAreNot() {
        ToolOutcome busy = call(tool("guide", new Config(base() + "/status/429", "GET")), "{\"topic\":\"x\"}");
        assertThat(busy.attempts()).isEqualTo(3);
        seen.clear();
        ToolOutcome missing = call(tool("guide", new Config(base() + "/status/404", "GET")), "{\"topic\":\"x\"}");
        assertThat(missing.error()).isTrue();
        assertThat(missing.attempts()).isEqualTo(1);
        assertThat(seen).hasSize(1);
        assertThat(missing.content()).isEqualTo("guide failed: HTTP 404: status page, token [REDACTED]");
    }

    @Test
    void aServiceThatCannotBeReachedIsRetriedThenReported() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ToolOutcome o = call(tool("guide", new Config("http://127.0.0.1:" + closedPort + "/guides/{topic}", "GET")), "{\"topic\":\"x\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(3);
        assertThat(o.content()).isEqualTo("guide failed after 3 attempts: could not connect");
    }

    @Test
    void aLongAnswerIsCutToTheConfiguredSize() {
        ToolOutcome o = call(tool("guide", new Config(base() + "/big", "GET").maxResponseChars(25)), "{\"topic\":\"x\"}");
        assertThat(o.error()).isFalse();
        assertThat(o.content()).isEqualTo("HTTP 200\n0123456789012345678901234\n[truncated]");
    }

    @Test
    void redirectsAreNotFollowed() {
        ToolOutcome o = call(tool("guide", new Config(base() + "/redirect", "GET")), "{\"topic\":\"x\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.content()).isEqualTo("guide failed: HTTP 302: redirects are not followed (to http://169.254.169.254/latest/meta-data)");
    }

    @Test
    void aRequestThatWouldGoToAHostNotAllowedIsAnErrorOutcomeAndIsNotSent() {
        int port = server.getAddress().getPort();
        HttpTool regional = tool("regional", new Config("http://{host}:" + port + "/guides/{topic}", "GET"));
        assertThat(call(regional, "{\"topic\":\"x\",\"host\":\"127.0.0.1\"}").error()).isFalse();
        ToolOutcome o = call(regional, "{\"topic\":\"x\",\"host\":\"169.254.169.254\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).isEqualTo("regional failed: host 169.254.169.254 is not allowed (conduit.tools.http-allowed-hosts)");
        // an argument cannot smuggle another host in: it is encoded, so there is no host at all
        assertThat(call(regional, "{\"topic\":\"x\",\"host\":\"evil.example@127.0.0.1\"}").error()).isTrue();
        assertThat(seen).containsExactly("GET /guides/x");
    }

    @Test
    void anAllowedNameThatResolvesToANonPublicAddressIsRefusedUnlessTheAddressIsListed() {
        int port = server.getAddress().getPort();
        Config config = new Config("http://localhost:" + port + "/guides/{topic}", "GET");
        HttpTool strict = new HttpTool("guide", config, List.of("localhost"), ReachableAddresses.publicAnd(List.of()), client,
                Duration.ofSeconds(5));
        ToolOutcome o = call(strict, "{\"topic\":\"x\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).startsWith("guide failed: host localhost resolves to ")
                .endsWith(", a non-public address (list it in conduit.tools.private-addresses to allow it)");
        assertThat(seen).as("nothing was sent").isEmpty();

        HttpTool listed = new HttpTool("guide", config, List.of("localhost"),
                ReachableAddresses.publicAnd(List.of("127.0.0.0/8", "::1")), client, Duration.ofSeconds(5));
        assertThat(call(listed, "{\"topic\":\"x\"}").error()).isFalse();
        assertThat(seen).containsExactly("GET /guides/x");
    }

    @Test
    void aToolForAHostThatIsNotAllowedIsRefusedAtStartUp() {
        assertThatThrownBy(() -> tool("evil", new Config("http://169.254.169.254/latest/{topic}", "GET")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("HTTP tool evil calls 169.254.169.254, which is not in conduit.tools.http-allowed-hosts [127.0.0.1]");
        assertThatThrownBy(() -> tool("put", new Config(base() + "/x", "PUT"))).hasMessageContaining("method PUT is not supported");
        assertThatThrownBy(() -> tool("ftp", new Config("ftp://127.0.0.1/x", "GET"))).hasMessageContaining("not an http(s) URL");
        assertThat(seen).isEmpty();
    }

    @Test
    void onlyCredentialHeadersAreSecrets() {
        assertThat(tool("guide", new Config(base() + "/x", "GET")).secrets()).containsExactly(TOKEN);
    }
}
