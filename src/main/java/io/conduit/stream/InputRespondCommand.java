package io.conduit.stream;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.Interrupt;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.graphs.Assistants;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code input.respond}: answers pending interrupts by id, one ({@code {interrupt_id, response}}) or several
 * ({@code {responses: [...]}}), with an optional {@code update} and {@code goto}: a new run with
 * {@code Command(resume={id: response...}, update, goto)} on the thread's assistant. Result {@code {run_id}}
 * (LangGraph's server answers {@code {}}; the SDK reads nothing from it).
 */
final class InputRespondCommand {

    private final ProtocolRuns runs;
    private final Assistants assistants;

    InputRespondCommand(ProtocolRuns runs, Assistants assistants) {
        this.runs = runs;
        this.assistants = assistants;
    }

    Uni<JsonNode> handle(String threadId, ObjectNode params, Principal caller) {
        List<JsonNode> answers = new ArrayList<>();
        if (params.has("responses")) {
            if (!params.get("responses").isArray() || params.get("responses").isEmpty()) {
                return Uni.createFrom().failure(ProtocolException.invalid("responses must be a non-empty list of {namespace, interrupt_id, response}"));
            }
            params.get("responses").forEach(answers::add);
        } else {
            answers.add(params);
        }
        ObjectNode resume = JsonCodec.MAPPER.createObjectNode();
        for (JsonNode a : answers) {
            JsonNode id = a.get("interrupt_id");
            if (id == null || !id.isTextual() || id.asText().isEmpty()) {
                return Uni.createFrom().failure(ProtocolException.invalid("input.respond requires an interrupt_id."));
            }
            resume.set(id.asText(), a.has("response") ? a.get("response") : JsonCodec.MAPPER.nullNode());
        }
        return runs.latest(threadId).chain(last -> assistants.resolve(last.assistantId())
                .chain(a -> assistants.graph(a).graph().state(threadId))
                .chain(state -> {
                    Set<String> pending = state.map(s -> s.interrupts().stream().filter(Interrupt::answerable)
                            .map(Interrupt::id).collect(Collectors.toSet())).orElse(Set.of());
                    if (pending.isEmpty()) {
                        throw ProtocolException.invalid("input.respond can only be used while the run is interrupted.");
                    }
                    for (var it = resume.fieldNames(); it.hasNext(); ) {
                        String id = it.next();
                        if (!pending.contains(id)) {
                            throw new ProtocolException("no_such_interrupt", "No pending interrupt " + id + "; pending: " + pending);
                        }
                    }
                    ObjectNode body = ProtocolRuns.body(last.assistantId(), params);
                    ObjectNode command = body.putObject("command");
                    command.set("resume", resume);
                    if (params.hasNonNull("update")) {
                        command.set("update", params.get("update"));
                    }
                    if (params.hasNonNull("goto")) {
                        command.set("goto", params.get("goto"));
                    }
                    return runs.start(threadId, body, caller);
                }))
                .map(ProtocolRuns::runId);
    }
}
