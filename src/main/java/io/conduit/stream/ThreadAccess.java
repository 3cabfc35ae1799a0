package io.conduit.stream;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

/**
 * Whether a caller may see a thread through the protocol's transports: asked when a WebSocket opens (no: closed with
 * 4403) and for each HTTP command or event stream (no: 403). The SDK sends no headers on a WebSocket, so a real
 * implementation reads a cookie (or a credential the Production work defines) from {@code headers}. The default
 * allows everything.
 */
public interface ThreadAccess {

    /** {@code headers}: the request's (for a WebSocket, its upgrade request's), names in lower case. */
    Uni<Boolean> allows(String threadId, Map<String, List<String>> headers);
}
