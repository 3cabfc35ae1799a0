package io.conduit.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.auth.Principal;
import io.conduit.kernel.JsonCodec;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Consumer;

/**
 * The MCP methods this server answers: {@code initialize} (the revision, the tools capability, who it is),
 * {@code ping}, {@code tools/list} and {@code tools/call}; any other is -32601.
 */
@ApplicationScoped
public class McpMethods {

    private final AssistantTools tools;
    private final ToolCalls calls;
    private final String version;

    McpMethods(AssistantTools tools, ToolCalls calls,
               @org.eclipse.microprofile.config.inject.ConfigProperty(name = "quarkus.application.version", defaultValue = "0") String version) {
        this.tools = tools;
        this.calls = calls;
        this.version = version;
    }

    /** The result of a request, or a {@link JsonRpc.Failure}; {@code onClose} as {@link ToolCalls#call} takes it. */
    Uni<JsonNode> answer(JsonRpc.Message m, Principal caller, Context context, Consumer<Runnable> onClose) {
        ObjectNode params = m.paramsObject();
        return switch (m.method()) {
            case "initialize" -> Uni.createFrom().item(() -> initialize(params));
            case "ping" -> Uni.createFrom().item(JsonCodec.MAPPER.createObjectNode());
            case "tools/list" -> tools.of(caller).map(list -> {
                ObjectNode out = JsonCodec.MAPPER.createObjectNode();
                out.set("tools", AssistantTools.list(list));
                return out;
            });
            case "tools/call" -> calls.call(params, caller, context, onClose);
            default -> Uni.createFrom().failure(new JsonRpc.Failure(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + m.method(), 200, m.id()));
        };
    }

    private JsonNode initialize(ObjectNode params) {
        JsonNode asked = params.get("protocolVersion");
        if (asked != null && !asked.isTextual()) {
            throw JsonRpc.Failure.invalidParams("Invalid params: protocolVersion must be a string.");
        }
        ObjectNode out = JsonCodec.MAPPER.createObjectNode().put("protocolVersion", ProtocolVersions.negotiate(asked == null ? null : asked.textValue()));
        out.putObject("capabilities").putObject("tools").put("listChanged", false);
        out.putObject("serverInfo").put("name", "conduit").put("title", "Conduit").put("version", version);
        out.put("instructions", "Each tool is an assistant of this server: give it a question as input and it answers in text.");
        return out;
    }
}
