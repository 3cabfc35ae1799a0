package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.http.Callers;
import io.conduit.runs.crons.Crons;
import io.conduit.runs.submission.JsonFields;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;

/** LangGraph's crons: create one (a new thread per tick), search, count, update, delete. A thread's: {@link ThreadCronsResource}. */
@Path("/runs/crons")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CronsResource {

    private final Crons crons;

    CronsResource(Crons crons) {
        this.crons = crons;
    }

    @POST
    public Uni<ObjectNode> create(JsonNode body, @Context HttpServerRequest request) {
        return crons.create(null, body, Callers.of(request)).map(CronJson::cron);
    }

    @POST
    @Path("/search")
    public Uni<ArrayNode> search(JsonNode body, @Context HttpServerRequest request) {
        JsonNode select = JsonFields.body(body).get("select");
        CronJson.select(select); // a bad select is refused before the search
        return crons.search(body, Callers.of(request)).map(found -> CronJson.crons(found, select, Instant.now()));
    }

    @POST
    @Path("/count")
    public Uni<Long> count(JsonNode body, @Context HttpServerRequest request) {
        return crons.count(body, Callers.of(request));
    }

    @PATCH
    @Path("/{cron_id}")
    public Uni<ObjectNode> update(@PathParam("cron_id") String cronId, JsonNode body, @Context HttpServerRequest request) {
        return crons.update(cronId, body, Callers.of(request)).map(CronJson::cron);
    }

    @DELETE
    @Path("/{cron_id}")
    public Uni<Response> delete(@PathParam("cron_id") String cronId, @Context HttpServerRequest request) {
        return crons.delete(cronId, Callers.of(request)).map(x -> Response.noContent().build());
    }
}
