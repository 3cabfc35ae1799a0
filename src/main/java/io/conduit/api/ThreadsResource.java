package io.conduit.api;

import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import io.smallrye.mutiny.Multi;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import io.conduit.http.Callers;
import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSnapshot;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.RunStore;
import io.conduit.runs.SortOrder;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.ThreadExistsException;
import io.conduit.runs.ThreadGraphMismatchException;
import io.conduit.runs.ThreadRecord;
import io.conduit.runs.ThreadStatus;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.InputDecoder;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.submission.JsonFields;
import io.conduit.runs.submission.ThreadDeletion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** Threads: their records, their state at any checkpoint, and their history. */
@Path("/threads")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ThreadsResource {

    /** The fields of a thread a search may {@code select}. */
    private static final List<String> THREAD_FIELDS = List.of("thread_id", "created_at", "updated_at", "state_updated_at", "status",
            "metadata", "values", "interrupts", "config", "error");
    /** Threads of a search page whose state is read at once. */
    private static final int STATE_READS_AT_ONCE = 8;

    private final ThreadStore threads;
    private final RunStore runs;
    private final ThreadDeletion deletion;
    private final GraphRegistry graphs;

    ThreadsResource(ThreadStore threads, RunStore runs, ThreadDeletion deletion, GraphRegistry graphs) {
        this.threads = threads;
        this.runs = runs;
        this.deletion = deletion;
        this.graphs = graphs;
    }

    @POST
    public Uni<ObjectNode> create(JsonNode body, @Context HttpServerRequest request) {
        Principal caller = Callers.of(request);
        JsonNode b = JsonFields.body(body);
        String given = JsonFields.text(b, "thread_id");
        String id = given != null ? given : UUID.randomUUID().toString();
        if (!InputText.isId(id)) {
            throw new InvalidInputException("thread_id", "ids are 1 to 128 letters, digits or - _ . : @");
        }
        String ifExists = JsonFields.oneOf(b, "if_exists", "raise", "raise", "do_nothing");
        Map<String, Object> metadata = caller.stamp(JsonFields.object(b, "metadata"));
        Instant now = Instant.now();
        Instant expiresAt = expiry(b, now);
        RegisteredGraph graph = metadata.get(GraphRegistry.GRAPH_ID) instanceof String g && graphs.byGraphId(g) != null
                ? graphs.byGraphId(g) : graphs.defaultGraph();
        ThreadSupersteps supersteps = ThreadSupersteps.parse(b.get("supersteps"), graph); // checked whole before anything is written
        if (supersteps.isEmpty()) {
            return threads.create(id, metadata, expiresAt, ifExists.equals("do_nothing"), now).map(t -> WireJson.thread(owned(t, caller), null));
        }
        // the thread is bound to the graph its checkpoints are written with, as a state update binds it
        Map<String, Object> bound = new java.util.HashMap<>(metadata);
        bound.putIfAbsent(GraphRegistry.GRAPH_ID, graph.graphId());
        return threads.create(id, bound, expiresAt, false, now)
                .chain(t -> supersteps.apply(id, graph.graph())
                        // a thread left with part of its supersteps is not the one asked for: it goes
                        .onFailure().call(f -> deletion.delete(id).onFailure().recoverWithNull())
                        .replaceWith(t))
                // an existing thread is returned as it is, its supersteps not applied (LangGraph's do_nothing)
                .onFailure(ThreadExistsException.class).recoverWithUni(f -> ifExists.equals("do_nothing")
                        ? threads.get(id).map(t -> t.orElseThrow(() -> (ThreadExistsException) f))
                        : Uni.createFrom().failure(f))
                .map(t -> WireJson.thread(owned(t, caller), null));
    }

    /** A thread that exists but is another principal's is not the caller's to have: as if its id were taken. */
    private static ThreadRecord owned(ThreadRecord t, Principal caller) {
        if (!caller.sees(t.metadata())) {
            throw new ThreadExistsException(t.threadId());
        }
        return t;
    }

    @GET
    @Path("/{id}")
    public Uni<ObjectNode> get(@PathParam("id") String id) {
        return record(id).chain(t -> graph(t).state(id).map(s -> WireJson.thread(t, s.orElse(null))));
    }

    @PATCH
    @Path("/{id}")
    public Uni<ObjectNode> patch(@PathParam("id") String id, JsonNode body, @Context HttpServerRequest request) {
        Map<String, Object> metadata = JsonFields.object(JsonFields.body(body), "metadata");
        if (metadata.containsKey(Principal.OWNER) && !Callers.of(request).anonymous()) {
            // AccessGuard let the caller in as the owner (or an admin): the owner stays who it is
            metadata = new java.util.HashMap<>(metadata);
            metadata.remove(Principal.OWNER);
        }
        return threads.patchMetadata(id, metadata, Instant.now()).map(t -> WireJson.thread(t.orElseThrow(() -> missing(id)), null));
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        return record(id).chain(t -> deletion.delete(id)).map(x -> Response.noContent().build());
    }

    /** A new thread at this one's current state (its history is not copied), with its metadata (so its graph too). */
    @POST
    @Path("/{id}/copy")
    @Consumes(MediaType.WILDCARD)
    public Uni<ObjectNode> copy(@PathParam("id") String id, @Context HttpServerRequest request) {
        Principal caller = Callers.of(request);
        String to = UUID.randomUUID().toString();
        Instant now = Instant.now();
        return record(id).chain(t -> {
            CompiledGraph graph = graph(t);
            return threads.create(to, caller.stamp(t.metadata()), t.expiresAt(), false, now)
                    .chain(created -> graph.state(id).chain(s -> s.isEmpty() ? Uni.createFrom().item(created)
                            : graph.copyThread(id, to).replaceWith(created)))
                    .chain(created -> graph.state(to).map(s -> WireJson.thread(created, s.orElse(null))));
        });
    }

    @POST
    @Path("/search")
    public Uni<Response> search(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = JsonFields.body(body);
        Principal caller = Callers.of(request);
        int limit = JsonFields.integer(b, "limit", 10, 1, 1000);
        int offset = JsonFields.integer(b, "offset", 0, 0, Integer.MAX_VALUE);
        String sortBy = JsonFields.text(b, "sort_by");
        String sortOrder = JsonFields.text(b, "sort_order");
        SortOrder.checked(sortBy, sortOrder, ThreadStore.SORTS);
        Set<String> select = select(b);
        boolean withState = select == null || select.contains("values") || select.contains("interrupts");
        return threads.search(caller.narrow(JsonFields.object(b, "metadata")), status(b), limit, offset, sortBy, sortOrder)
                .chain(list -> withState ? withStates(list) : Uni.createFrom().item(list.stream().map(t -> WireJson.thread(t, null)).toList()))
                .map(list -> {
                    ArrayNode out = JsonCodec.MAPPER.createArrayNode();
                    for (ObjectNode t : list) {
                        out.add(select == null ? t : t.retain(select));
                    }
                    return SearchPages.page(out, offset, limit);
                });
    }

    /**
     * Each thread as {@code GET /threads/{id}} gives it, its values and interrupts read from its head checkpoint: per
     * thread one read of the head (its state is the loader's cached one for a thread a run touched lately, else its
     * last snapshot and the deltas after it), a few threads at a time so a page of 1000 does not take the whole pool.
     */
    private Uni<List<ObjectNode>> withStates(List<ThreadRecord> page) {
        if (page.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        ObjectNode[] out = new ObjectNode[page.size()];
        return Multi.createFrom().range(0, page.size())
                .onItem().transformToUni(i -> Uni.createFrom().deferred(() -> graph(page.get(i)).state(page.get(i).threadId()))
                        // one thread's state that cannot be read (stored by another version of its graph) does not fail
                        // the page: it is listed without values, and GET /threads/{id} says why
                        .onFailure().recoverWithItem(Optional.<StateSnapshot>empty())
                        .invoke(s -> out[i] = WireJson.thread(page.get(i), s.orElse(null))))
                .merge(STATE_READS_AT_ONCE)
                .collect().last()
                .map(x -> List.of(out));
    }

    /** {@code select}: the fields to return (LangGraph's), null for all; an unknown field is refused. */
    private static Set<String> select(JsonNode b) {
        JsonNode s = b.get("select");
        if (s == null || s.isNull()) {
            return null;
        }
        if (!s.isArray()) {
            throw new InvalidInputException("select", "must be a list of thread fields " + THREAD_FIELDS);
        }
        Set<String> out = new java.util.LinkedHashSet<>();
        for (JsonNode f : s) {
            if (!f.isTextual() || !THREAD_FIELDS.contains(f.asText())) {
                throw new InvalidInputException("select", "unknown field " + f + "; known: " + THREAD_FIELDS);
            }
            out.add(f.asText());
        }
        return out;
    }

    @POST
    @Path("/count")
    public Uni<Long> count(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = JsonFields.body(body);
        return threads.count(Callers.of(request).narrow(JsonFields.object(b, "metadata")), status(b));
    }

    @GET
    @Path("/{id}/state")
    public Uni<ObjectNode> state(@PathParam("id") String id, @QueryParam("subgraphs") String subgraphs) {
        return record(id).chain(t -> graph(t).state(id)).map(s -> WireJson.state(id, s.orElse(null)));
    }

    @GET
    @Path("/{id}/state/{checkpoint}")
    public Uni<ObjectNode> stateAt(@PathParam("id") String id, @PathParam("checkpoint") String checkpoint) {
        return record(id).chain(t -> graph(t).state(id, checkpoint)).map(s -> WireJson.state(id, s.orElseThrow(() -> new NotFoundException("Checkpoint " + checkpoint + " not found"))));
    }

    @POST
    @Path("/{id}/state/checkpoint")
    public Uni<ObjectNode> stateAtCheckpoint(@PathParam("id") String id, JsonNode body) {
        JsonNode checkpoint = JsonFields.body(body).get("checkpoint");
        if (checkpoint != null && !checkpoint.isNull() && !checkpoint.isObject()) {
            throw new InvalidInputException("checkpoint", "must be an object {checkpoint_id}");
        }
        String cp = checkpoint == null || checkpoint.isNull() ? null : checkpointField(checkpoint, "checkpoint.checkpoint_id");
        return cp == null ? state(id, null) : stateAt(id, cp);
    }

    /**
     * Binds a thread that has no graph yet to {@code registered} before its first checkpoint is written: a compare-and-set,
     * so that a first run of another graph arriving at the same moment cannot bind it too (that one wins, this is a 409).
     */
    private Uni<Void> bindUnbound(ThreadRecord t, RegisteredGraph registered) {
        if (GraphRegistry.recordedGraphId(t) != null) {
            return Uni.createFrom().voidItem();
        }
        return threads.patchMetadataIf(t.threadId(), GraphRegistry.GRAPH_ID, null, Map.of(GraphRegistry.GRAPH_ID, registered.graphId()), Instant.now())
                .invoke(bound -> {
                    String recorded = bound.map(GraphRegistry::recordedGraphId).orElse(registered.graphId());
                    if (!recorded.equals(registered.graphId())) {
                        throw new ThreadGraphMismatchException(t.threadId(), recorded, registered.graphId());
                    }
                }).replaceWithVoid();
    }

    /**
     * Updates the state as a node would have ({@code as_node}), in a new checkpoint (source {@code update}); the next
     * run without input continues from there. 409 while a run is pending or running on the thread. The values are
     * the thread's graph's; a thread without a graph yet is bound to the default graph, whose checkpoint this writes.
     */
    @POST
    @Path("/{id}/state")
    public Uni<ObjectNode> updateState(@PathParam("id") String id, JsonNode body) {
        JsonNode b = JsonFields.body(body);
        String asNode = JsonFields.text(b, "as_node");
        String given = JsonFields.text(b, "checkpoint_id");
        String checkpointId = given == null && b.path("checkpoint").isObject() ? checkpointField(b.get("checkpoint"), "checkpoint.checkpoint_id") : given;
        return record(id).chain(t -> {
            RegisteredGraph registered = graphs.forThread(t);
            CompiledGraph graph = registered.graph();
            Update update = InputDecoder.decode(graph.schema(), b.get("values"), "values");
            if (asNode != null && !asNode.equals(StateGraph.START) && !graph.nodeNames().contains(asNode)) {
                throw new InvalidInputException("as_node", "the graph " + registered.graphId() + " has no node " + asNode);
            }
            Update u = update == null ? Update.none() : update;
            registered.policy().checkUpdate("values", u); // a message the graph could not use is never written
            return runs.inflight(id).chain(inflight -> {
                if (!inflight.isEmpty()) {
                    throw new ThreadBusyException(id);
                }
                return bindUnbound(t, registered);
            }).chain(() -> graph.updateState(id, u, asNode, checkpointId));
        })
                .map(cp -> {
                    ObjectNode out = JsonCodec.MAPPER.createObjectNode();
                    out.set("checkpoint", WireJson.checkpoint(id, cp));
                    return out;
                });
    }

    @POST
    @Path("/{id}/history")
    public Uni<ArrayNode> history(@PathParam("id") String id, JsonNode body) {
        JsonNode b = JsonFields.body(body);
        int limit = JsonFields.integer(b, "limit", 10, 1, 1000);
        String from = before(b.get("before"));
        return record(id).chain(t -> {
            CompiledGraph graph = graph(t);
            // a checkpoint the thread does not have is not a place to list from: 404, as for the state at it
            Uni<Void> known = from == null ? Uni.createFrom().voidItem() : graph.state(id, from).invoke(s -> {
                if (s.isEmpty()) {
                    throw new NotFoundException("before: checkpoint " + from + " not found on thread " + id);
                }
            }).replaceWithVoid();
            return known.chain(() -> graph.history(id, limit, from));
        }).map(list -> {
            ArrayNode out = JsonCodec.MAPPER.createArrayNode();
            for (StateSnapshot s : list) {
                out.add(WireJson.state(id, s));
            }
            return out;
        });
    }

    /** {@code before}: a checkpoint id, a checkpoint, or a config (the SDK's Config: {configurable: {checkpoint_id}}); null: none. */
    private static String before(JsonNode before) {
        if (before == null || before.isNull()) {
            return null;
        }
        if (before.isTextual()) {
            return before.textValue();
        }
        if (before.isObject() && before.has("checkpoint_id")) {
            return checkpointField(before, "before.checkpoint_id");
        }
        if (before.isObject() && before.path("configurable").isObject()) {
            return checkpointField(before.get("configurable"), "before.configurable.checkpoint_id");
        }
        throw new InvalidInputException("before", "must be a checkpoint id, a checkpoint {checkpoint_id} or a config {configurable: {checkpoint_id}}");
    }

    /** The {@code checkpoint_id} of a checkpoint object, a string; {@code field} names it when it is not. */
    private static String checkpointField(JsonNode checkpoint, String field) {
        JsonNode id = checkpoint.get("checkpoint_id");
        if (id == null || id.isNull()) {
            return null;
        }
        if (!id.isTextual()) {
            throw new InvalidInputException(field, "must be a string");
        }
        return id.textValue();
    }

    /** {@code ttl}: minutes (a number, or {@code {"ttl": minutes, "strategy": "delete"}}) until the thread is deleted. */
    private static Instant expiry(JsonNode b, Instant now) {
        JsonNode ttl = b.get("ttl");
        if (ttl == null || ttl.isNull()) {
            return null;
        }
        JsonNode minutes = ttl.isObject() ? ttl.get("ttl") : ttl;
        if (ttl.isObject() && ttl.hasNonNull("strategy") && !"delete".equals(ttl.get("strategy").asText())) {
            throw new InvalidInputException("ttl.strategy", "only delete is supported");
        }
        if (minutes == null || !minutes.isNumber() || minutes.asDouble() <= 0) {
            throw new InvalidInputException("ttl", "must be a positive number of minutes");
        }
        return now.plusMillis((long) (minutes.asDouble() * 60_000));
    }

    private CompiledGraph graph(ThreadRecord t) {
        return graphs.forThread(t).graph();
    }

    private Uni<ThreadRecord> record(String id) {
        if (!InputText.isId(id)) {
            return Uni.createFrom().failure(missing(id));
        }
        return threads.get(id).map(t -> t.orElseThrow(() -> missing(id)));
    }

    private static NotFoundException missing(String id) {
        return new NotFoundException("Thread " + id + " not found");
    }

    private static ThreadStatus status(JsonNode b) {
        String s = JsonFields.text(b, "status");
        if (s == null) {
            return null;
        }
        try {
            return ThreadStatus.of(s);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("status", "must be idle, busy, interrupted or error");
        }
    }

}
