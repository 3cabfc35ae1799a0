package io.conduit.a2a;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Assistant;

/**
 * An assistant's A2A agent card (v0.3, as LangGraph's Agent Server serves it at
 * {@code /.well-known/agent-card.json?assistant_id=}): its name and description, the JSON-RPC endpoint
 * {@code /a2a/{assistant_id}} on the address the client called, streaming on, text in and out, one skill (the chat).
 */
final class AgentCard {

    static final String PROTOCOL_VERSION = "0.3.0";

    private AgentCard() {
    }

    /** {@code base}: scheme and authority the client reached this service at, e.g. {@code http://localhost:8080}. */
    static ObjectNode of(Assistant a, String base, String version) {
        String name = a.name() == null || a.name().isBlank() ? a.graphId() : a.name();
        String description = a.description() == null || a.description().isBlank()
                ? "Conduit assistant " + name + " (graph " + a.graphId() + "): send it a message, it answers"
                : a.description();
        ObjectNode card = JsonCodec.MAPPER.createObjectNode().put("protocolVersion", PROTOCOL_VERSION).put("name", name)
                .put("description", description).put("url", base + "/a2a/" + a.assistantId()).put("preferredTransport", "JSONRPC")
                .put("version", version);
        card.putObject("capabilities").put("streaming", true).put("pushNotifications", false).put("stateTransitionHistory", false);
        textOnly(card.putArray("defaultInputModes"));
        textOnly(card.putArray("defaultOutputModes"));
        ObjectNode skill = card.putArray("skills").addObject().put("id", a.graphId() + "-chat").put("name", name).put("description", description);
        skill.putArray("tags").add("chat").add(a.graphId());
        textOnly(skill.putArray("inputModes"));
        textOnly(skill.putArray("outputModes"));
        return card;
    }

    private static void textOnly(ArrayNode modes) {
        modes.add("text/plain");
    }
}
