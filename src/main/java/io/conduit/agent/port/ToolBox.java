package io.conduit.agent.port;

import io.conduit.agent.message.ToolCall;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * The agent's port to its tools (implemented in {@code io.conduit.tools}). {@link #call} never fails: invalid
 * arguments, a tool that throws, a timeout all become an error outcome for the model to read.
 */
public interface ToolBox {

    List<ToolSpec> specs();

    Uni<ToolOutcome> call(ToolCall call, ToolScope scope);
}
