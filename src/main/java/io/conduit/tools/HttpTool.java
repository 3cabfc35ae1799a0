package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A tool declared in config that calls an HTTP service, the way assistants reach retrieval (RAG) and course-guide
 * APIs: the arguments fill the URL template, a POST sends the others as a JSON body. Only allow-listed hosts are
 * reachable, only at the addresses {@link ReachableAddresses} allows (checked after DNS resolution), and redirects are
 * not followed (a redirect could lead anywhere). Non-blocking: the JDK client's async
 * API. 429 and 5xx are retryable; other failures are final.
 */
public final class HttpTool implements Tool {

    private static final int ERROR_BODY_CHARS = 500;
    // headers whose values are not credentials: masking "application/json" in every answer would only garble it
    private static final Set<String> PLAIN_HEADERS = Set.of("accept", "accept-language", "content-type", "user-agent");

    private final String name;
    private final ToolsConfig.HttpToolConfig config;
    private final UrlTemplate url;
    private final boolean post;
    private final Set<String> allowedHosts = new HashSet<>();
    private final ReachableAddresses addresses;
    private final HttpClient client;
    private final Duration requestTimeout;
    private final Redactor headerValues;

    /** Refuses (a start-up error) a method other than GET/POST, a bad URL, or a fixed host that is not allowed. */
    public HttpTool(String name, ToolsConfig.HttpToolConfig config, Collection<String> allowedHosts, ReachableAddresses addresses,
                    HttpClient client, Duration defaultTimeout) {
        this.name = name;
        this.addresses = addresses;
        this.config = config;
        this.client = client;
        allowedHosts.forEach(h -> this.allowedHosts.add(h.strip().toLowerCase(Locale.ROOT)));
        String method = config.method().strip().toUpperCase(Locale.ROOT);
        if (!method.equals("GET") && !method.equals("POST")) {
            throw new IllegalStateException("HTTP tool " + name + ": method " + config.method() + " is not supported (GET or POST)");
        }
        this.post = method.equals("POST");
        try {
            this.url = new UrlTemplate(config.url());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("HTTP tool " + name + ": bad URL " + config.url() + ": " + e.getMessage());
        }
        url.fixedHost().ifPresent(host -> {
            if (!this.allowedHosts.contains(host)) {
                throw new IllegalStateException("HTTP tool " + name + " calls " + host
                        + ", which is not in conduit.tools.http-allowed-hosts " + this.allowedHosts);
            }
        });
        this.requestTimeout = config.timeout().orElse(defaultTimeout);
        this.headerValues = new Redactor(List.of(), secrets());
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
    public Set<String> injected() {
        return Set.copyOf(config.injected().orElse(List.of()));
    }

    @Override
    public Duration timeout() {
        return config.timeout().orElse(null);
    }

    @Override
    public Set<String> secrets() {
        Set<String> values = new HashSet<>();
        config.headers().forEach((header, value) -> {
            if (!PLAIN_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
                values.add(value);
            }
        });
        return Set.copyOf(values);
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        URI uri;
        try {
            uri = url.expand(arguments);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(new IllegalArgumentException("the arguments do not make a valid URL"));
        }
        String host = UrlTemplate.host(uri);
        if (host == null || !allowedHosts.contains(host)) {
            return Uni.createFrom().failure(new IllegalArgumentException("host " + host + " is not allowed (conduit.tools.http-allowed-hosts)"));
        }
        // the name's addresses are checked off the event loop (a DNS lookup blocks), then the request is sent
        return Uni.createFrom().item(() -> resolved(host)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(ok -> send(uri, arguments, scope));
    }

    private String resolved(String host) {
        try {
            addresses.check(host);
            return host;
        } catch (java.net.UnknownHostException e) {
            throw new RetryableToolException("host " + host + " is not known: " + e.getMessage());
        }
    }

    private Uni<String> send(URI uri, JsonNode arguments, ToolScope scope) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        // under a scope's timeout (a graph's own limit for its tools) the executor's timer alone bounds the call: a
        // client timeout of the same length would race it and turn one clear timeout into retried I/O failures
        if (scope.timeout() == null) {
            request.timeout(requestTimeout);
        }
        config.headers().forEach(request::header);
        if (post) {
            ObjectNode body = arguments.deepCopy();
            url.names().forEach(body::remove);
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            request.GET();
        }
        // four bytes per character at most in UTF-8: enough to fill the character limit whatever the text
        int maxBytes = (int) Math.min(Integer.MAX_VALUE - 8, 4L * config.maxResponseChars());
        return Uni.createFrom().completionStage(() -> client.sendAsync(request.build(), CappedBody.handler(maxBytes)))
                .map(this::read);
    }

    private String read(HttpResponse<CappedBody.Body> response) {
        int status = response.statusCode();
        // this tool's own secrets go before the text is cut, so a cut cannot leave half a secret behind
        String text = headerValues.apply(response.body().text());
        boolean truncated = response.body().truncated();
        if (text.length() > config.maxResponseChars()) {
            text = text.substring(0, config.maxResponseChars());
            truncated = true;
        }
        if (status == 429 || status >= 500) {
            throw new RetryableToolException("HTTP " + status + ": " + shortened(text));
        }
        if (status >= 300 && status < 400) {
            throw new IllegalStateException("HTTP " + status + ": redirects are not followed (to "
                    + response.headers().firstValue("Location").orElse("?") + ")");
        }
        if (status >= 400) {
            throw new IllegalStateException("HTTP " + status + ": " + shortened(text));
        }
        return "HTTP " + status + "\n" + text + (truncated ? "\n[truncated]" : "");
    }

    private static String shortened(String text) {
        return text.length() <= ERROR_BODY_CHARS ? text : text.substring(0, ERROR_BODY_CHARS) + "...";
    }
}
