package io.conduit.api;

import io.conduit.http.RunWaits;
import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import io.conduit.http.Callers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.Run;
import io.conduit.runs.RunElsewhereException;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.submission.JsonFields;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.wire.WireState;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** A thread's runs: create one in the background, get, list, cancel, join, delete. */
@Path("/threads/{tid}/runs")
@Produces(MediaType.APPLICATION_JSON)
public class RunsResource {

    private final RunSubmission submission;
    private final RunStore runs;
    private final RunExecutor executor;
    private final RunEventLogs logs;
    private final GraphRegistry graphs;
    private final ServingConfig config;
    private final RunWaits waits;

    RunsResource(RunSubmission submission, RunStore runs, RunExecutor executor, RunEventLogs logs, GraphRegistry graphs, ServingConfig config,
            RunWaits waits) {
        this.submission = submission;
        this.runs = runs;
        this.executor = executor;
        this.logs = logs;
        this.graphs = graphs;
        this.config = config;
        this.waits = waits;
    }

    @POST
    @Path("")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(@PathParam("tid") String threadId, JsonNode body, @Context HttpServerRequest request) {
        return submission.submit(threadId, body, false, Callers.of(request)).map(s -> Response.ok(WireJson.run(s.run()))
                .header("Content-Location", "/threads/" + threadId + "/runs/" + s.run().runId()).build());
    }

    @GET
    @Path("")
    public Uni<ArrayNode> list(@PathParam("tid") String threadId, @QueryParam("limit") String limitParam,
                               @QueryParam("offset") String offsetParam, @QueryParam("status") String status) {
        // read here, not by JAX-RS: a parameter it cannot convert would be a bare 404
        int limit = JsonFields.integer(limitParam, "limit", 10, 1, 1000);
        int offset = JsonFields.integer(offsetParam, "offset", 0, 0, Integer.MAX_VALUE);
        RunStatus s;
        try {
            s = status == null ? null : RunStatus.of(status);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("status", "must be pending, running, success, error, interrupted or timeout");
        }
        return runs.listByThread(threadId, limit, offset, s).map(list -> {
            ArrayNode out = JsonCodec.MAPPER.createArrayNode();
            list.forEach(r -> out.add(WireJson.run(r)));
            return out;
        });
    }

    @GET
    @Path("/{rid}")
    public Uni<ObjectNode> get(@PathParam("tid") String threadId, @PathParam("rid") String runId) {
        return run(threadId, runId).map(WireJson::run);
    }

    @DELETE
    @Path("/{rid}")
    public Uni<Response> delete(@PathParam("tid") String threadId, @PathParam("rid") String runId) {
        return run(threadId, runId).chain(r -> {
            if (!r.status().finished()) {
                throw new ThreadBusyException(threadId);
            }
            return runs.delete(runId);
        }).map(x -> Response.noContent().build());
    }

    /** {@code action=interrupt} keeps the run's progress; {@code rollback} deletes it. {@code wait=1} answers once it stopped. */
    @POST
    @Path("/{rid}/cancel")
    public Uni<Response> cancel(@PathParam("tid") String threadId, @PathParam("rid") String runId,
                                @QueryParam("wait") @DefaultValue("0") String wait, @QueryParam("action") @DefaultValue("interrupt") String action) {
        RunExecutor.StopReason why = switch (action) {
            case "interrupt" -> RunExecutor.StopReason.INTERRUPT;
            case "rollback" -> RunExecutor.StopReason.ROLLBACK;
            default -> throw new InvalidInputException("action", "must be interrupt or rollback");
        };
        boolean waiting = JsonFields.flag(wait, "wait", false);
        return run(threadId, runId).chain(r -> executor.cancel(r, why)).chain(stopping -> stopping ? Uni.createFrom().voidItem()
                        // not stoppable here: finished meanwhile, or executing on another replica
                        : run(threadId, runId).invoke(now -> {
                            if (!now.status().finished()) {
                                throw new RunElsewhereException(now);
                            }
                        }).replaceWithVoid())
                .chain(() -> waiting ? executor.recorded(runId) : Uni.createFrom().voidItem())
                .chain(() -> waiting ? runs.get(runId).map(r -> r.<Response>map(x -> Response.ok(WireJson.run(x)).build())
                        .orElse(Response.noContent().build())) : Uni.createFrom().item(Response.accepted().build()));
    }

    /** Waits for the run to end, then answers with the thread's final values (as {@code runs/wait} does). */
    @GET
    @Path("/{rid}/join")
    public Uni<JsonNode> join(@PathParam("tid") String threadId, @PathParam("rid") String runId) {
        return run(threadId, runId).chain(r -> waits.untilEnd(outcome(r, -1).chain(o -> o == null ? afterEnd(r) : Uni.createFrom().item(o.values()))));
    }

    /**
     * The run's outcome once its stream has ended, read from its events after {@code afterSeq}; null when this
     * process holds no events of it.
     */
    private Uni<RunOutcome> outcome(Run r, long afterSeq) {
        ThreadEventLog log = logs.find(r.threadId());
        if (log == null) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().emitter(em -> {
            ThreadEventLog.Subscription s = log.subscribeRun(r.runId(), afterSeq, new RunOutcome(em::complete));
            if (s == null) {
                em.complete(null);
            } else {
                em.onTermination(s::cancel);
            }
        });
    }

    /**
     * A run whose events this process does not have (a process that died ran it and this one is to resume it, or its
     * log has expired): the thread's values once the run's end is recorded.
     */
    private Uni<JsonNode> afterEnd(Run r) {
        return recordedEnd(r).chain(done -> {
            RegisteredGraph g = graphs.byGraphId(done.spec().graphId());
            if (g == null) {
                return Uni.createFrom().item((JsonNode) JsonCodec.MAPPER.createObjectNode());
            }
            return g.graph().state(done.threadId()).map(s -> s.map(snap -> (JsonNode) WireState.values(snap.values()))
                    .orElseGet(JsonCodec.MAPPER::createObjectNode));
        });
    }

    /** The run once it has finished (or is gone), looked up every {@code conduit.runs.poll-interval}. */
    private Uni<Run> recordedEnd(Run r) {
        if (r.status().finished()) {
            return Uni.createFrom().item(r);
        }
        return Uni.createFrom().voidItem().onItem().delayIt().by(config.pollInterval())
                .chain(() -> runs.get(r.runId()))
                .chain(found -> found.isEmpty() ? Uni.createFrom().item(r) : recordedEnd(found.get()));
    }

    private Uni<Run> run(String threadId, String runId) {
        return runs.get(runId).map(r -> r.filter(x -> x.threadId().equals(threadId))
                .orElseThrow(() -> new NotFoundException("Run " + runId + " not found on thread " + threadId)));
    }
}
