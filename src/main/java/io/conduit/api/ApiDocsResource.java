package io.conduit.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.conduit.kernel.JsonCodec;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The API described, as LangGraph's server serves it: {@code GET /openapi.json} (OpenAPI 3.1) and {@code GET /docs},
 * a page that draws it. The document is written by hand ({@code openapi/openapi.yaml}), since most streaming routes
 * are Vert.x routes no generator sees, and checked against the routes served (OpenApiDocumentTest). Read on the first
 * request, not at start-up: no client pays for it but the one that asks.
 */
@Path("/")
public class ApiDocsResource {

    static final String DOCUMENT = "openapi/openapi.yaml";
    static final String PAGE = "openapi/docs.html";

    private final String version;
    private volatile String json;
    private volatile String html;

    ApiDocsResource(@ConfigProperty(name = "quarkus.application.version") String version) {
        this.version = version;
    }

    /** Small (tens of KB) and read once: parsed on the event loop rather than handed to a worker. */
    @GET
    @Path("openapi.json")
    @NonBlocking
    @Produces(MediaType.APPLICATION_JSON)
    public String document() {
        String j = json;
        if (j == null) {
            try {
                ObjectNode doc = (ObjectNode) new YAMLMapper().readTree(resource(DOCUMENT));
                ((ObjectNode) doc.get("info")).put("version", version); // the build's, not the one written down
                json = j = JsonCodec.MAPPER.writeValueAsString(doc);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return j;
    }

    @GET
    @Path("docs")
    @NonBlocking
    @Produces(MediaType.TEXT_HTML)
    public String page() {
        String h = html;
        if (h == null) {
            html = h = resource(PAGE);
        }
        return h;
    }

    private static String resource(String name) {
        try (InputStream in = ApiDocsResource.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the application");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
