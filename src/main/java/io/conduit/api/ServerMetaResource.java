package io.conduit.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The Agent Server's meta endpoints, which LangGraph's front ends call before anything else: {@code GET /info}
 * (agent-chat-ui's "is the server there" check, LangGraph Studio's feature flags) and {@code GET /ok}. Open without
 * credentials, as {@code /q/health} is (AccessGuard): they say nothing about threads or assistants.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class ServerMetaResource {

    /** What {@code flags} and {@code host} say, the union of LangGraph's JS and Python servers' shapes. */
    private final ObjectNode info;

    ServerMetaResource(@ConfigProperty(name = "quarkus.application.version") String version) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("version", version).put("context", "conduit");
        // assistants and crons are served; LangSmith tracing is not
        o.putObject("flags").put("assistants", true).put("crons", true).put("langsmith", false)
                .put("langsmith_tracing_replicas", false);
        o.putObject("host").put("kind", "self-hosted").putNull("project_id").putNull("host_revision_id")
                .putNull("revision_id").putNull("tenant_id");
        this.info = o;
    }

    @GET
    @Path("info")
    @NonBlocking
    public ObjectNode info() {
        return info;
    }

    @GET
    @Path("ok")
    @NonBlocking
    public ObjectNode ok() {
        return JsonCodec.MAPPER.createObjectNode().put("ok", true);
    }
}
