package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.ToolScope;
import io.smallrye.mutiny.Uni;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tool declared in config that calls an HTTP service (a retrieval or course-guide API): the arguments fill the
 * URL template; a POST sends the others as a JSON body. Only allow-listed hosts are reachable. Non-blocking (the
 * JDK client's async API). 429 and 5xx are retryable; other errors are final.
 */
public final class HttpTool implements Tool {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_]+)}");

    private final String name;
    private final ToolsConfig.HttpToolConfig config;
    private final Set<String> allowedHosts;
    private final HttpClient client;

    public HttpTool(String name, ToolsConfig.HttpToolConfig config, Set<String> allowedHosts, HttpClient client) {
        this.name = name;
        this.config = config;
        this.allowedHosts = Set.copyOf(allowedHosts);
        this.client = client;
        String host = URI.create(PLACEHOLDER.matcher(config.url()).replaceAll("x")).getHost();
        if (host == null || !this.allowedHosts.contains(host)) {
            throw new IllegalStateException("HTTP tool " + name + " calls " + host
                    + ", which is not in conduit.tools.http-allowed-hosts " + this.allowedHosts);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return config.description();
    }

    @Override
    public String parametersSchema() {
        return config.schema();
    }

    @Override
    public Duration timeout() {
        return config.timeout().orElse(null);
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        Set<String> used = new HashSet<>();
        Matcher m = PLACEHOLDER.matcher(config.url());
        StringBuilder url = new StringBuilder();
        while (m.find()) {
            used.add(m.group(1));
            JsonNode v = arguments.get(m.group(1));
            m.appendReplacement(url, Matcher.quoteReplacement(URLEncoder.encode(v == null ? "" : v.asText(), StandardCharsets.UTF_8)));
        }
        m.appendTail(url);
        URI uri = URI.create(url.toString());
        if (!allowedHosts.contains(uri.getHost())) {
            return Uni.createFrom().failure(new IllegalArgumentException("host " + uri.getHost() + " is not allowed"));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout() != null ? timeout() : Duration.ofSeconds(30));
        config.headers().forEach(request::header);
        if ("POST".equalsIgnoreCase(config.method())) {
            ObjectNode body = arguments.deepCopy();
            used.forEach(body::remove);
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            request.GET();
        }
        return Uni.createFrom().completionStage(() -> client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()))
                .map(this::read);
    }

    private String read(HttpResponse<String> response) {
        int status = response.statusCode();
        String body = response.body() == null ? "" : response.body();
        if (body.length() > config.maxResponseChars()) {
            body = body.substring(0, config.maxResponseChars()) + " [truncated]";
        }
        if (status == 429 || status >= 500) {
            throw new RetryableToolException("HTTP " + status + ": " + body);
        }
        if (status >= 400) {
            throw new IllegalStateException("HTTP " + status + ": " + body);
        }
        return body;
    }

    /** Secrets to redact: the values of the configured headers. */
    Map<String, String> headers() {
        return config.headers();
    }

}
