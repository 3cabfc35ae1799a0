package io.conduit.api;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Root endpoint: identifies the service and its version. */
@Path("/")
public class ServiceInfoResource {

    /** JSON body of {@code GET /}. */
    public record ServiceInfo(String service, String version) {
    }

    private final ServiceInfo info;

    /**
     * Quarkus fills {@code quarkus.application.name/version} from the POM's
     * artifactId and version at build time.
     */
    public ServiceInfoResource(
            @ConfigProperty(name = "quarkus.application.name") String name,
            @ConfigProperty(name = "quarkus.application.version") String version) {
        this.info = new ServiceInfo(name, version);
    }

    /** Runs on the event loop: nothing here blocks. */
    @GET
    @NonBlocking
    @Produces(MediaType.APPLICATION_JSON)
    public ServiceInfo info() {
        return info;
    }
}
