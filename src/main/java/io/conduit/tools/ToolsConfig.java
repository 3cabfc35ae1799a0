package io.conduit.tools;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Tools: {@code conduit.tools.*} (see the Tools section of application.properties). */
@ConfigMapping(prefix = "conduit.tools")
public interface ToolsConfig {

    /** How long one attempt of a tool call may take, unless the tool sets its own. */
    @WithDefault("10s")
    Duration timeout();

    /** Tries of a call that fails with a retryable error, the first included. */
    @WithDefault("3")
    int maxAttempts();

    /** Wait before the first retry; it doubles at each retry, up to {@link #retryMaxBackoff()}. */
    @WithDefault("200ms")
    Duration retryBackoff();

    @WithDefault("2s")
    Duration retryMaxBackoff();

    /** Tool calls running at once in this service; more wait their turn (they are not refused). */
    @WithDefault("64")
    int maxConcurrent();

    /** Longest tool output handed to the model; the rest is cut off. */
    @WithDefault("16000")
    int maxOutputChars();

    /** Regular expressions whose matches are replaced by [REDACTED] in every outcome (escape commas as \\,). */
    Optional<List<String>> redact();

    /** Hosts HTTP tools may call (exact names or IP addresses). */
    Optional<List<String>> httpAllowedHosts();

    /**
     * Non-public addresses (loopback, link-local and the cloud metadata address, private, unique-local) that HTTP tools
     * and MCP servers may reach, as addresses or CIDR blocks (e.g. {@code 10.20.0.0/16}): an internal retrieval
     * service. Every other non-public address is refused, checked on what a host name resolves to.
     */
    Optional<List<String>> privateAddresses();

    /** HTTP tools, by name. */
    Map<String, HttpToolConfig> http();

    /** MCP servers whose tools the model may call, by name. */
    Map<String, McpServerConfig> mcp();

    /** An HTTP tool: how the model's arguments become a request. */
    interface HttpToolConfig {

        /** URL template; {@code {arg}} is replaced by the URL-encoded argument. */
        String url();

        /** GET, or POST (which sends the arguments not used in the URL as a JSON body). */
        @WithDefault("GET")
        String method();

        String description();

        /** JSON schema (text) of the arguments. */
        @WithDefault("{\"type\":\"object\"}")
        String schema();

        /** Arguments filled from the run (e.g. user_id), hidden from the model; list them in the schema too. */
        Optional<List<String>> injected();

        Optional<Duration> timeout();

        /** Request headers; their values are secrets, redacted from anything the model sees. */
        Map<String, String> headers();

        /** Longest response body kept; the rest is cut off (and not even read). */
        @WithDefault("8000")
        int maxResponseChars();
    }

    /** An MCP server. */
    interface McpServerConfig {

        /** {@code sse}: the server's SSE endpoint, e.g. http://host:3001/sse. {@code streamable-http}: its MCP endpoint, e.g. http://host:3001/mcp. */
        String url();

        @WithDefault("sse")
        McpTransportKind transport();

        /** For connecting, listing and each call. */
        @WithDefault("30s")
        Duration timeout();

        /** Request headers (e.g. Authorization); their values are redacted from anything the model sees. */
        Map<String, String> headers();
    }

    /** The two HTTP transports of MCP: HTTP with SSE (the 2024-11-05 spec) and streamable HTTP (2025-03-26 on). */
    enum McpTransportKind { SSE, STREAMABLE_HTTP }
}
