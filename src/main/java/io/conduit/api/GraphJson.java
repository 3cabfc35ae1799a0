package io.conduit.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.GraphShape;
import io.conduit.kernel.JsonCodec;

/**
 * A graph as {@code GET /assistants/{id}/graph} gives it, in the shape of LangChain's {@code Graph.to_json()} that
 * LangGraph Studio and the SDK's {@code getGraph} read: {@code nodes} ({@code id}, {@code type}, {@code data}) and
 * {@code edges} ({@code source}, {@code target}, {@code conditional}), plus Conduit's Mermaid drawing.
 */
final class GraphJson {

    private GraphJson() {
    }

    static ObjectNode of(GraphShape shape, String mermaid) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        ArrayNode nodes = o.putArray("nodes");
        // START and END (a subgraph's too) are the state's schema in LangChain's terms; the others run
        shape.nodes().forEach(n -> nodes.addObject().put("id", n).put("type", GraphShape.endpoint(n) ? "schema" : "runnable").put("data", n));
        ArrayNode edges = o.putArray("edges");
        // no "data": LangGraph sends it only for a router's label that differs from its target, and routes here have none
        shape.edges().forEach(e -> edges.addObject().put("source", e.source()).put("target", e.target()).put("conditional", e.conditional()));
        o.put("mermaid", mermaid);
        return o;
    }
}
