package io.conduit.mcp;

import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The browser origins that may call {@code /mcp}. MCP's transport says a server must check {@code Origin}, against DNS
 * rebinding: a page of another site whose name is made to resolve to this host would otherwise reach an MCP server on
 * localhost (with {@code conduit.auth.mode=none}, as in development) as if it were the same origin. A request without
 * {@code Origin} (no browser) passes; a browser's passes when its origin is on this machine ({@code localhost},
 * {@code 127.0.0.1}, {@code [::1]}, as a local MCP inspector is) or listed in {@code quarkus.http.cors.origins}, the
 * front ends an operator allows; any other is 403.
 */
@ApplicationScoped
public class AllowedOrigins {

    private static final Set<String> LOCAL = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final List<String> listed;

    AllowedOrigins(@ConfigProperty(name = "quarkus.http.cors.origins") Optional<List<String>> listed) {
        this.listed = listed.orElse(List.of());
    }

    boolean allows(String origin) {
        if (origin == null) {
            return true;
        }
        if (listed.contains(origin) || listed.contains("*")) {
            return true;
        }
        try {
            String host = URI.create(origin).getHost();
            return host != null && LOCAL.contains(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
