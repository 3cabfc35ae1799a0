package io.conduit.api;

import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import io.conduit.http.Callers;
import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.Channel;
import io.conduit.graph.CompiledGraph;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Assistant;
import io.conduit.runs.AssistantExistsException;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.SortOrder;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.submission.JsonFields;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Assistants: every served graph as a system assistant, and those created through the API. */
@Path("/assistants")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AssistantsResource {

    private final Assistants assistants;

    AssistantsResource(Assistants assistants) {
        this.assistants = assistants;
    }

    @POST
    @Path("/search")
    public Uni<Response> search(JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = JsonFields.body(body);
        int limit = JsonFields.integer(b, "limit", 10, 1, 1000);
        int offset = JsonFields.integer(b, "offset", 0, 0, Integer.MAX_VALUE - 1000);
        return search(body, Callers.of(request)).map(page -> SearchPages.page(page, offset, limit));
    }

    /** The system assistants (everyone's) and the stored ones the caller may see. */
    private Uni<ArrayNode> search(JsonNode body, Principal caller) {
        JsonNode b = JsonFields.body(body);
        String graphId = JsonFields.text(b, "graph_id");
        String name = JsonFields.text(b, "name");
        Map<String, Object> metadata = JsonFields.object(b, "metadata");
        int limit = JsonFields.integer(b, "limit", 10, 1, 1000);
        int offset = JsonFields.integer(b, "offset", 0, 0, Integer.MAX_VALUE - 1000);
        String sortBy = JsonFields.text(b, "sort_by");
        String sortOrder = JsonFields.text(b, "sort_order");
        SortOrder.checked(sortBy, sortOrder, AssistantStore.SORTS);
        List<Assistant> system = new ArrayList<>();
        for (Assistant a : assistants.system()) {
            if ((graphId == null || graphId.equals(a.graphId())) && (name == null || name.equals(a.name()))
                    && a.metadata().entrySet().containsAll(metadata.entrySet())) {
                system.add(a);
            }
        }
        return assistants.store().search(graphId, name, caller.narrow(metadata), limit + offset, 0, sortBy, sortOrder)
                .map(stored -> {
                    List<Assistant> all = new ArrayList<>(system);
                    all.addAll(stored);
                    ArrayNode out = JsonCodec.MAPPER.createArrayNode();
                    all.stream().skip(offset).limit(limit).forEach(a -> out.add(WireJson.assistant(a)));
                    return out;
                });
    }

    @POST
    @Path("/count")
    public Uni<Long> count(JsonNode body, @Context HttpServerRequest request) {
        return search(((ObjectNode) JsonFields.body(body).deepCopy()).put("limit", 1000).put("offset", 0), Callers.of(request))
                .map(a -> (long) a.size());
    }

    /** A new assistant: a served graph plus a configuration that overrides its defaults (checked against its schema). */
    @POST
    public Uni<ObjectNode> create(JsonNode body, @Context HttpServerRequest request) {
        Principal caller = Callers.of(request);
        JsonNode b = object(body);
        String graphId = JsonFields.text(b, "graph_id");
        RegisteredGraph graph = graphId == null ? null : assistants.graphs().byGraphId(graphId);
        if (graph == null) {
            throw new InvalidInputException("graph_id", graphId == null ? "is required" : "no graph " + graphId + " is served here");
        }
        String given = JsonFields.text(b, "assistant_id");
        String id = given != null ? given : UUID.randomUUID().toString();
        if (!InputText.isId(id)) {
            throw new InvalidInputException("assistant_id", "ids are 1 to 128 letters, digits or - _ . : @");
        }
        if (assistants.system().stream().anyMatch(a -> a.assistantId().equals(id) || a.graphId().equals(id))) {
            throw new AssistantExistsException(id);
        }
        String ifExists = JsonFields.oneOf(b, "if_exists", "raise", "raise", "do_nothing");
        Instant now = Instant.now();
        Assistant a = new Assistant(id, graphId, text(b, "name", graphId), text(b, "description", null), config(b, graph),
                JsonFields.object(b, "context"), caller.stamp(JsonFields.object(b, "metadata")), 1, now, now);
        return assistants.store().create(a, ifExists.equals("do_nothing")).map(created -> {
            if (!caller.sees(created.metadata())) {
                throw new AssistantExistsException(id); // another principal's: its id is taken, nothing more is said
            }
            return WireJson.assistant(created);
        });
    }

    /** A change makes a new version, which becomes the latest. */
    @PATCH
    @Path("/{id}")
    public Uni<ObjectNode> patch(@PathParam("id") String id, JsonNode body, @Context HttpServerRequest request) {
        JsonNode b = object(body);
        boolean keepOwner = !Callers.of(request).anonymous(); // the owner stays who it is
        String graphId = JsonFields.text(b, "graph_id");
        // the body's fields are checked before the assistant is read: a bad one is refused whatever the assistant
        text(b, "name", null);
        text(b, "description", null);
        JsonFields.object(b, "context");
        JsonFields.object(b, "metadata");
        return stored(id).chain(current -> {
            RegisteredGraph graph = assistants.graph(current);
            if (graphId != null && !graphId.equals(current.graphId())) {
                throw new InvalidInputException("graph_id", "an assistant keeps its graph");
            }
            Map<String, Object> config = b.has("config") ? config(b, graph) : current.config();
            Instant now = Instant.now();
            return assistants.store().update(id, a -> new Assistant(a.assistantId(), a.graphId(), text(b, "name", a.name()),
                    text(b, "description", a.description()), config, b.has("context") ? JsonFields.object(b, "context") : a.context(),
                    b.has("metadata") ? merged(a.metadata(), withoutOwner(JsonFields.object(b, "metadata"), keepOwner)) : a.metadata(), a.version(), a.createdAt(), now));
        }).map(a -> WireJson.assistant(a.orElseThrow(() -> missing(id))));
    }

    private static Map<String, Object> withoutOwner(Map<String, Object> metadata, boolean drop) {
        if (!drop || !metadata.containsKey(Principal.OWNER)) {
            return metadata;
        }
        Map<String, Object> m = new java.util.HashMap<>(metadata);
        m.remove(Principal.OWNER);
        return m;
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        return stored(id).chain(a -> assistants.store().delete(id)).map(x -> Response.noContent().build());
    }

    @POST
    @Path("/{id}/versions")
    public Uni<ArrayNode> versions(@PathParam("id") String id, JsonNode body) {
        JsonNode b = JsonFields.body(body);
        int limit = JsonFields.integer(b, "limit", 10, 1, 1000);
        int offset = JsonFields.integer(b, "offset", 0, 0, Integer.MAX_VALUE);
        Uni<List<Assistant>> versions = assistants.system().stream().anyMatch(a -> a.assistantId().equals(id) || a.graphId().equals(id))
                ? assistants.resolve(id).map(List::of)
                : stored(id).chain(a -> assistants.store().versions(id, limit, offset));
        return versions.map(list -> {
            ArrayNode out = JsonCodec.MAPPER.createArrayNode();
            list.forEach(a -> out.add(WireJson.assistant(a)));
            return out;
        });
    }

    @POST
    @Path("/{id}/latest")
    public Uni<ObjectNode> latest(@PathParam("id") String id, JsonNode body) {
        JsonNode v = object(body).get("version");
        if (v == null || !v.isInt()) {
            throw new InvalidInputException("version", "must be a version number");
        }
        return stored(id).chain(a -> assistants.store().setLatest(id, v.asInt()))
                .map(a -> WireJson.assistant(a.orElseThrow(() -> new NotFoundException("Assistant " + id + " has no version " + v.asInt()))));
    }

    private Uni<Assistant> stored(String id) {
        if (!InputText.isId(id)) {
            return Uni.createFrom().failure(missing(id));
        }
        return assistants.store().get(id).map(a -> a.orElseThrow(() -> missing(id)));
    }

    private static NotFoundException missing(String id) {
        return new NotFoundException("Assistant " + id + " not found");
    }

    private static JsonNode object(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new InvalidInputException("body", "must be a JSON object");
        }
        return body;
    }

    private static String text(JsonNode b, String field, String dflt) {
        JsonNode n = b.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isTextual()) {
            throw new InvalidInputException(field, "must be a string");
        }
        InputText.check(field, n.asText(), 10_000);
        return n.asText();
    }

    /** {@code config}, with its {@code configurable} checked against the graph's settings. */
    private static Map<String, Object> config(JsonNode b, RegisteredGraph graph) {
        Map<String, Object> config = JsonFields.object(b, "config");
        Object configurable = config.getOrDefault("configurable", Map.of());
        if (!(configurable instanceof Map<?, ?> m)) {
            throw new InvalidInputException("config.configurable", "must be an object");
        }
        @SuppressWarnings("unchecked")
        String problem = graph.configPolicy().problem((Map<String, Object>) m);
        if (problem != null) {
            throw new InvalidInputException("config.configurable." + problem.split(" ")[0], problem);
        }
        return config;
    }

    private static Map<String, Object> merged(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> out = new java.util.HashMap<>(a);
        out.putAll(b);
        return out;
    }

    @GET
    @Path("/{id}")
    public Uni<ObjectNode> get(@PathParam("id") String id) {
        return assistants.resolve(id).map(WireJson::assistant);
    }

    /** The graph: its nodes and edges ({@code xray}: with subgraphs drawn inside their nodes), and a Mermaid drawing. */
    @GET
    @Path("/{id}/graph")
    public Uni<ObjectNode> graph(@PathParam("id") String id, @QueryParam("xray") String xray) {
        int levels = XrayParam.levels(xray);
        return assistants.resolve(id).map(a -> {
            CompiledGraph g = assistants.graph(a).graph();
            return GraphJson.of(g.shape(levels), g.mermaid());
        });
    }

    /** The state's fields as JSON schemas (the values are JSON; their inner shape is the channel's). */
    @GET
    @Path("/{id}/schemas")
    public Uni<ObjectNode> schemas(@PathParam("id") String id) {
        return assistants.resolve(id).map(a -> {
            CompiledGraph g = assistants.graph(a).graph();
            ObjectNode state = JsonCodec.MAPPER.createObjectNode().put("type", "object").put("title", a.graphId());
            ObjectNode props = state.putObject("properties");
            for (Channel<?, ?> ch : g.schema().channels()) {
                props.putObject(ch.name());
            }
            ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("graph_id", a.graphId());
            o.set("input_schema", state);
            o.set("output_schema", state);
            o.set("state_schema", state);
            o.set("config_schema", JsonCodec.MAPPER.valueToTree(assistants.graph(a).configSchema()));
            o.set("context_schema", JsonCodec.MAPPER.createObjectNode().put("type", "object"));
            return o;
        });
    }

    @GET
    @Path("/{id}/subgraphs")
    public Uni<ObjectNode> subgraphs(@PathParam("id") String id) {
        return assistants.resolve(id).map(a -> JsonCodec.MAPPER.createObjectNode());
    }
}
