package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.conduit.agent.ToolCall;
import io.conduit.agent.ToolOutcome;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HTTP tools against a real HTTP server started by the test. */
class HttpToolTest {

    HttpServer server;
    final List<String> seen = new CopyOnWriteArrayList<>();
    int status = 200;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + body + " auth=" + exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] out = ("guide for " + exchange.getRequestURI().getPath() + " (token Bearer s3cret-key)").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    ToolsConfig.HttpToolConfig config(String url, String method) {
        return new ToolsConfig.HttpToolConfig() {
            public String url() { return url; }
            public String method() { return method; }
            public String description() { return "course guide"; }
            public String schema() {
                return "{\"type\":\"object\",\"properties\":{\"topic\":{\"type\":\"string\"},\"level\":{\"type\":\"integer\"}},\"required\":[\"topic\"]}";
            }
            public Optional<Duration> timeout() { return Optional.empty(); }
            public Map<String, String> headers() { return Map.of("Authorization", "Bearer s3cret-key"); }
            public int maxResponseChars() { return 8000; }
        };
    }

    ToolOutcome call(HttpTool tool, String args) {
        ToolExecutor ex = ToolExecutorTest.executor(new Redactor(List.of(), tool.headers().values()), tool);
        return ex.call(new ToolCall("c", tool.name(), args), ToolExecutorTest.SCOPE).await().atMost(Duration.ofSeconds(10));
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void getFillsTheTemplateEncodedAndTheSecretHeaderIsSentButRedacted() {
        HttpTool tool = new HttpTool("guide", config(base() + "/guides/{topic}", "GET"), Set.of("127.0.0.1"), HttpClient.newHttpClient());
        ToolOutcome o = call(tool, "{\"topic\":\"linear algebra\"}");
        assertThat(o.error()).isFalse();
        assertThat(seen).containsExactly("GET /guides/linear+algebra  auth=Bearer s3cret-key");
        assertThat(o.content()).isEqualTo("guide for /guides/linear+algebra (token [REDACTED])");
    }

    @Test
    void postSendsTheOtherArgumentsAsJson() {
        HttpTool tool = new HttpTool("search", config(base() + "/search/{topic}", "POST"), Set.of("127.0.0.1"), HttpClient.newHttpClient());
        assertThat(call(tool, "{\"topic\":\"calculus\",\"level\":2}").error()).isFalse();
        assertThat(seen).containsExactly("POST /search/calculus {\"level\":2} auth=Bearer s3cret-key");
    }

    @Test
    void serverErrorsAreRetriedThenReported() {
        status = 503;
        HttpTool tool = new HttpTool("guide", config(base() + "/guides/{topic}", "GET"), Set.of("127.0.0.1"), HttpClient.newHttpClient());
        ToolOutcome o = call(tool, "{\"topic\":\"x\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(3);
        assertThat(seen).hasSize(3);
        assertThat(o.content()).contains("HTTP 503");
    }

    @Test
    void clientErrorsAreNotRetried() {
        status = 404;
        HttpTool tool = new HttpTool("guide", config(base() + "/guides/{topic}", "GET"), Set.of("127.0.0.1"), HttpClient.newHttpClient());
        ToolOutcome o = call(tool, "{\"topic\":\"x\"}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.content()).contains("HTTP 404");
    }

    @Test
    void aToolForAHostThatIsNotAllowedIsRefusedAtStartUp() {
        assertThatThrownBy(() -> new HttpTool("evil", config("http://169.254.169.254/latest/{topic}", "GET"), Set.of("127.0.0.1"), HttpClient.newHttpClient()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("169.254.169.254").hasMessageContaining("http-allowed-hosts");
        assertThat(seen).isEmpty();
    }
}
