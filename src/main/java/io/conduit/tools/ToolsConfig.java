package io.conduit.tools;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Tools: {@code conduit.tools.*}. */
@ConfigMapping(prefix = "conduit.tools")
public interface ToolsConfig {

    /** How long a tool call may take, unless the tool says otherwise. */
    @WithDefault("10s")
    Duration timeout();

    /** Tries of a call that fails with a retryable error, the first included. */
    @WithDefault("3")
    int maxAttempts();

    @WithDefault("200ms")
    Duration retryBackoff();

    @WithDefault("2s")
    Duration retryMaxBackoff();

    /** Regular expressions whose matches are replaced by [REDACTED] in what tools return. */
    Optional<List<String>> redact();

    /** Hosts HTTP tools may call. */
    Optional<List<String>> httpAllowedHosts();

    /** HTTP tools, by name. */
    Map<String, HttpToolConfig> http();

    /** MCP servers whose tools the agent may call, by name. */
    Map<String, McpServerConfig> mcp();

    /** An MCP server reached over streamable HTTP. */
    interface McpServerConfig {
        /** The server's MCP endpoint, e.g. http://localhost:3001/mcp. */
        String url();

        @WithDefault("30s")
        Duration timeout();
    }

    /** An HTTP tool: how the model's arguments become a request. */
    interface HttpToolConfig {
        /** URL template; {@code {arg}} is replaced by the URL-encoded argument. */
        String url();

        @WithDefault("GET")
        String method();

        String description();

        /** JSON schema of the arguments; POST sends the arguments not used in the URL as a JSON body. */
        @WithDefault("{\"type\":\"object\"}")
        String schema();

        Optional<Duration> timeout();

        /** Request headers; their values are secrets, redacted from anything the model sees. */
        Map<String, String> headers();

        @WithDefault("8000")
        int maxResponseChars();
    }
}
