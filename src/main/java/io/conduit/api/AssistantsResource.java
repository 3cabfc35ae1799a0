package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.graph.Channel;
import io.conduit.graph.CompiledGraph;
import io.conduit.runs.Assistant;
import io.conduit.runs.Assistants;
import io.conduit.runs.InvalidInputException;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    public Uni<ArrayNode> search(JsonNode body) {
        JsonNode b = body == null || body.isNull() ? JsonCodec.MAPPER.createObjectNode() : body;
        if (!b.isObject()) {
            throw new InvalidInputException("body", "must be a JSON object");
        }
        String graphId = b.path("graph_id").asText(null);
        String name = b.path("name").asText(null);
        Map<String, Object> metadata = ThreadsResource.map(b, "metadata");
        int limit = b.path("limit").asInt(10);
        int offset = b.path("offset").asInt(0);
        if (limit < 1 || limit > 1000 || offset < 0) {
            throw new InvalidInputException("limit", "limit is 1 to 1000 and offset 0 or more");
        }
        List<Assistant> system = new ArrayList<>();
        for (Assistant a : assistants.system()) {
            if ((graphId == null || graphId.equals(a.graphId())) && (name == null || name.equals(a.name()))
                    && a.metadata().entrySet().containsAll(metadata.entrySet())) {
                system.add(a);
            }
        }
        return assistants.store().search(graphId, name, metadata, limit + offset, 0, b.path("sort_by").asText("created_at"), b.path("sort_order").asText("desc"))
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
    public Uni<Long> count(JsonNode body) {
        return search(body == null || body.isNull() ? JsonCodec.MAPPER.createObjectNode().put("limit", 1000) : ((ObjectNode) body.deepCopy()).put("limit", 1000).put("offset", 0))
                .map(a -> (long) a.size());
    }

    @GET
    @Path("/{id}")
    public Uni<ObjectNode> get(@PathParam("id") String id) {
        return assistants.resolve(id).map(WireJson::assistant);
    }

    /** The graph: its nodes, and a Mermaid drawing of its edges. */
    @GET
    @Path("/{id}/graph")
    public Uni<ObjectNode> graph(@PathParam("id") String id) {
        return assistants.resolve(id).map(a -> {
            CompiledGraph g = assistants.graph(a).graph();
            ObjectNode o = JsonCodec.MAPPER.createObjectNode();
            ArrayNode nodes = o.putArray("nodes");
            nodes.addObject().put("id", "__start__").put("type", "schema").put("data", "__start__");
            g.nodeNames().forEach(n -> nodes.addObject().put("id", n).put("type", "runnable").put("data", n));
            nodes.addObject().put("id", "__end__").put("type", "schema").put("data", "__end__");
            o.put("mermaid", g.mermaid());
            return o;
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
            o.set("config_schema", JsonCodec.MAPPER.createObjectNode().put("type", "object"));
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
