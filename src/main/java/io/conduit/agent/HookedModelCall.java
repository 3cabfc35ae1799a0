package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;

/**
 * One model call from any graph's node, with its pre-model hooks: the hooks shape the request's messages, then the
 * call streams as the stages' calls do (a {@code chat_model} child run named after {@code stage}; text, reasoning and
 * tool calls streamed when {@code shown}, nothing but the announcement otherwise). The announcement carries the
 * messages as the model got them, so what the hooks did can be seen in the run's events.
 */
public final class HookedModelCall {

    /** The finished call and the message it made (its id is the one the tokens carried). */
    public record Reply(ModelResponse response, AssistantMessage message) {

        /** The call's record for a graph's {@code llm_calls}. */
        public LlmCall record(String runId, String stage) {
            return LlmCall.of(TimeOrderedIds.next(), runId, stage, response);
        }
    }

    private HookedModelCall() {
    }

    public static Uni<Reply> run(LanguageModel model, PreModelHook hook, ModelRequest request, State state, NodeContext ctx,
                                 String messageId, String stage, boolean shown) {
        return hook.apply(request.messages(), state, ctx).flatMap(messages -> StreamedModelCall.run(model,
                        new ModelRequest(request.role(), messages, request.tools(), request.model()), ctx, messageId, stage,
                        shown ? StreamedModelCall.Shown.ALL : StreamedModelCall.Shown.NOTHING))
                .map(r -> new Reply(r.response(), r.message()));
    }
}
