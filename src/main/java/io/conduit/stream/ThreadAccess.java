package io.conduit.stream;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

/**
 * Whether a caller may see a thread through the protocol's transports, beyond what every door already checks: asked
 * when a WebSocket opens (no: closed with 4403) and for each HTTP command or event stream (no: 403). Authentication and
 * ownership are not its job: io.conduit.http.AccessGuard refused the request before (401 without a credential, 404 on
 * another principal's thread; docs/auth.md), and the principal is in {@code headers} under
 * {@code io.conduit.http.Callers.HEADER}. The default allows everything.
 */
public interface ThreadAccess {

    /** {@code headers}: the request's (for a WebSocket, its upgrade request's), names in lower case. */
    Uni<Boolean> allows(String threadId, Map<String, List<String>> headers);
}
