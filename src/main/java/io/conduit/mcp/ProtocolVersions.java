package io.conduit.mcp;

import java.util.List;

/**
 * The MCP revisions this server speaks. {@code initialize} answers the client's revision when it is one of them, else
 * the newest (the client then decides whether it can go on); later requests name theirs in the
 * {@code MCP-Protocol-Version} header, which the specification says a server refuses with 400 when it does not speak
 * it, and reads as {@code 2025-03-26} when absent.
 */
final class ProtocolVersions {

    static final List<String> SUPPORTED = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    static final String LATEST = SUPPORTED.get(0);
    static final String HEADER = "MCP-Protocol-Version";

    private ProtocolVersions() {
    }

    /** The revision {@code initialize} answers for the client's {@code protocolVersion}. */
    static String negotiate(String asked) {
        return asked != null && SUPPORTED.contains(asked) ? asked : LATEST;
    }

    /** Whether a request's header names a revision spoken here (absent: yes). */
    static boolean accepted(String header) {
        return header == null || SUPPORTED.contains(header.strip());
    }
}
