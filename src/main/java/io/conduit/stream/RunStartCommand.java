package io.conduit.stream;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.runs.graphs.Assistants;
import io.smallrye.mutiny.Uni;

/**
 * {@code run.start {assistant_id, input?, config?, metadata?, multitask_strategy?}} → {@code {run_id}}. Creates the
 * thread if it does not exist; forks when {@code config.configurable.checkpoint_id} is set; when the thread waits on
 * an interrupt, a non-null {@code input} is the answer (LangGraph's server does the same).
 */
final class RunStartCommand {

    private final ProtocolRuns runs;
    private final Assistants assistants;

    RunStartCommand(ProtocolRuns runs, Assistants assistants) {
        this.runs = runs;
        this.assistants = assistants;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params, Principal caller) {
        JsonNode assistant = params.get("assistant_id");
        if (assistant == null || !assistant.isTextual() || assistant.asText().isEmpty()) {
            return Uni.createFrom().failure(ProtocolException.invalid("run.start requires an assistant_id."));
        }
        ObjectNode body = ProtocolRuns.body(assistant.asText(), params);
        JsonNode configurable = body.path("config").path("configurable");
        if (configurable.isObject() && configurable.hasNonNull("checkpoint_id")) {
            ObjectNode config = ((ObjectNode) body.get("config")).deepCopy();
            ObjectNode c = (ObjectNode) config.get("configurable");
            body.set("checkpoint_id", c.remove("checkpoint_id"));
            c.remove("checkpoint_ns");
            body.set("config", config);
        }
        JsonNode input = params.get("input");
        return assistants.resolve(assistant.asText(), caller)
                .chain(a -> assistants.graph(a).graph().state(threadId))
                .chain(state -> {
                    boolean waiting = state.isPresent() && state.get().waitsForAnswer();
                    if (input != null && !input.isNull()) {
                        if (waiting && !body.has("checkpoint_id")) {
                            body.putObject("command").set("resume", input);
                        } else {
                            body.set("input", input);
                        }
                    }
                    return runs.start(threadId, body, caller);
                })
                .map(ProtocolRuns::runId);
    }
}
