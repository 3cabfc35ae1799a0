package io.conduit.llm.simulator;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * OpenAI answers whatever the {@code Accept} header says: its own npm client sends {@code application/json} even for
 * a stream, SSE libraries send {@code text/event-stream}, curl sends {@code *}{@code /*}. Quarkus REST would turn the
 * first two away with 406, since the simulator's one method declares no media type of its own (it sets the content
 * type per answer), so the header is dropped before matching, for the simulator's paths only.
 */
public class AnyAcceptHeader {

    @ServerRequestFilter(preMatching = true)
    public void ignoreAccept(ContainerRequestContext request) {
        if (request.getUriInfo().getPath().startsWith("/simulator/")) {
            request.getHeaders().remove(HttpHeaders.ACCEPT);
        }
    }
}
