package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.LlmCall;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import java.util.List;

/** Each model call a node made, recorded in {@code llm_calls} as the default assistant records its own. */
final class ModelCalls {

    private ModelCalls() {
    }

    static Update record(Update u, NodeContext ctx, String stage, List<ModelResponse> responses) {
        return u.add(AgentState.LLM_CALLS, responses.stream().map(r -> LlmCall.of(TimeOrderedIds.next(), ctx.runId(), stage, r)).toList());
    }
}
