package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.service.tool.ToolExecutionResult;
import io.conduit.agent.port.ToolScope;
import io.conduit.kernel.JsonCodec;
import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A tool of an MCP server, called through LangChain4j's MCP client. The client blocks its thread until the server
 * answers, so the tool says it is blocking and the executor runs it on a worker thread.
 */
final class McpTool implements Tool {

    private final McpClient client;
    private final String name;
    private final String description;
    private final String schema;
    private final Set<String> secrets;

    McpTool(McpClient client, ToolSpecification spec, Set<String> secrets) {
        this.client = client;
        this.name = spec.name();
        this.description = spec.description() == null ? "" : spec.description();
        // the client hands the server's input schema over as LangChain4j's schema model; back to JSON for the validator
        Map<String, Object> parameters = spec.parameters() == null ? Map.of("type", "object")
                : JsonSchemaElementUtils.toMap(spec.parameters());
        this.schema = JsonCodec.MAPPER.valueToTree(parameters).toString();
        this.secrets = secrets;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String parametersSchema() {
        return schema;
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public Set<String> secrets() {
        return secrets;
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        return Uni.createFrom().item(() -> {
            ToolExecutionResult result = client.executeTool(ToolExecutionRequest.builder()
                    .id(UUID.randomUUID().toString()).name(name).arguments(arguments.toString()).build());
            if (result.isError()) {
                throw new IllegalStateException(result.resultText());
            }
            return result.resultText();
        });
    }
}
