package io.conduit.api;

import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import io.conduit.http.Callers;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.runs.submission.RunSubmission;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** A stateless background run: on a temporary thread, deleted when the run ends unless {@code on_completion=keep}. */
@Path("/runs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class StatelessRunsResource {

    private final RunSubmission submission;

    StatelessRunsResource(RunSubmission submission) {
        this.submission = submission;
    }

    @POST
    public Uni<Response> createStateless(JsonNode body, @Context HttpServerRequest request) {
        return submission.submit(null, body, false, Callers.of(request)).map(s -> Response.ok(WireJson.run(s.run()))
                .header("Content-Location", "/runs/" + s.run().runId()).build());
    }

}
