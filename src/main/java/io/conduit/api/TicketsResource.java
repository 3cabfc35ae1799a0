package io.conduit.api;

import io.conduit.auth.Authenticator;
import io.conduit.http.Callers;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * A WebSocket ticket for a browser, which cannot send headers on a WebSocket: the caller authenticates this POST as
 * any other request, and opens its socket with {@code ?ticket=} within {@code conduit.auth.ticket-ttl}, once.
 */
@Path("/auth/ws-ticket")
public class TicketsResource {

    private final Authenticator auth;

    TicketsResource(Authenticator auth) {
        this.auth = auth;
    }

    @POST
    @io.smallrye.common.annotation.NonBlocking
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> issue(@Context HttpServerRequest request) {
        return Map.of("ticket", auth.tickets().issue(Callers.of(request)), "expires_in", auth.tickets().ttl().toSeconds());
    }
}
