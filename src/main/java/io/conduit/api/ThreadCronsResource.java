package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.http.Callers;
import io.conduit.runs.crons.Crons;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

/** A cron on a thread: each tick is a run on it (LangGraph's {@code crons.createForThread}). */
@Path("/threads/{tid}/runs/crons")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ThreadCronsResource {

    private final Crons crons;

    ThreadCronsResource(Crons crons) {
        this.crons = crons;
    }

    @POST
    public Uni<ObjectNode> create(@PathParam("tid") String threadId, JsonNode body, @Context HttpServerRequest request) {
        return crons.create(threadId, body, Callers.of(request)).map(CronJson::cron);
    }
}
