package io.conduit.api;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Root endpoint: the chat page for a browser, else the service's name and version as JSON. A browser is a client
 * whose most preferred acceptable type is {@code text/html}; {@code application/json}, a wildcard ({@code curl}'s
 * {@code *}{@code /*}) or no Accept at all get the JSON, as they always did.
 */
@Path("/")
public class ServiceInfoResource {

    /** JSON body of {@code GET /}. */
    public record ServiceInfo(String service, String version) {
    }

    private final ServiceInfo info;
    private final ChatPage page;

    /**
     * Quarkus fills {@code quarkus.application.name/version} from the POM's
     * artifactId and version at build time.
     */
    public ServiceInfoResource(
            @ConfigProperty(name = "quarkus.application.name") String name,
            @ConfigProperty(name = "quarkus.application.version") String version,
            ChatPage page) {
        this.info = new ServiceInfo(name, version);
        this.page = page;
    }

    /** Runs on the event loop: nothing here blocks (the page was read at start-up). */
    @GET
    @NonBlocking
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_HTML})
    public Response info(HttpHeaders headers) {
        if (wantsHtml(headers)) {
            return Response.ok(page.html(), MediaType.TEXT_HTML_TYPE.withCharset("utf-8")).build();
        }
        return Response.ok(info, MediaType.APPLICATION_JSON_TYPE).build();
    }

    /** The first of the client's acceptable types (sorted by preference) that names HTML or JSON decides. */
    static boolean wantsHtml(HttpHeaders headers) {
        for (MediaType t : headers.getAcceptableMediaTypes()) {
            if (t.isCompatible(MediaType.TEXT_HTML_TYPE) && !t.isWildcardType()) {
                return true;
            }
            if (t.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
                return false;
            }
        }
        return false;
    }
}
