package io.conduit.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.auth.Principal;
import io.conduit.graph.Interrupt;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.conduit.runs.Assistant;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A2A's tasks over our runs: the assistant a call names, the context (thread) a message goes to, a task (a run of
 * that assistant on a thread the caller sees; another's is not found), read back ({@code tasks/get}) from the
 * thread's log while it keeps the run, else from the run's record, and cancelled ({@code tasks/cancel}).
 */
@ApplicationScoped
class A2aTasks {

    private static final String MESSAGES = "messages";

    private final Assistants assistants;
    private final RunStore runs;
    private final RunSubmission submission;
    private final ThreadLogs logs;
    private final RunExecutor executor;

    A2aTasks(Assistants assistants, RunStore runs, RunSubmission submission, ThreadLogs logs, RunExecutor executor) {
        this.assistants = assistants;
        this.runs = runs;
        this.submission = submission;
        this.logs = logs;
        this.executor = executor;
    }

    /** The assistant of {@code /a2a/{ref}}, of a graph that holds a conversation; an unknown one is a clear error. */
    Uni<Assistant> assistant(String ref, Principal caller) {
        return assistants.resolve(ref, caller)
                .onFailure(NotFoundException.class).transform(f -> new JsonRpcError(JsonRpcError.SERVER_ERROR, "Assistant " + ref + " not found",
                        JsonCodec.MAPPER.createObjectNode().put("status", 404).put("code", "assistant_not_found")))
                .invoke(a -> {
                    if (assistants.graph(a).graph().schema().channel(MESSAGES) == null) {
                        throw new JsonRpcError(JsonRpcError.UNSUPPORTED_OPERATION, "Assistant " + ref + " is of graph " + a.graphId()
                                + ", which holds no conversation: use the Agent Server API for it");
                    }
                });
    }

    /**
     * The thread a message goes to: its task's (which must be of its context, when both are given), its context, or
     * a new one. A task the caller cannot see is not found.
     */
    Uni<String> contextOf(SentMessage m, Assistant a, Principal caller) {
        if (m.taskId() != null) {
            return task(m.taskId(), a, caller).map(run -> {
                if (m.contextId() != null && !m.contextId().equals(run.threadId())) {
                    throw JsonRpcError.invalidParams("task " + m.taskId() + " is not of context " + m.contextId());
                }
                return run.threadId();
            });
        }
        String thread = m.contextId() != null ? m.contextId() : TimeOrderedIds.next();
        return submission.visible(thread, caller).replaceWith(thread);
    }

    /** Whether the thread waits on an interrupt's answer ({@code input-required}): the next message answers it. */
    Uni<Boolean> waiting(Assistant a, String thread) {
        // a thread of another graph does not read with this one's schema: the submission refuses it (409)
        return assistants.graph(a).graph().state(thread).map(s -> s.isPresent() && s.get().waitsForAnswer())
                .onFailure().recoverWithItem(false);
    }

    /** A run of assistant {@code a} on a thread the caller sees; else task not found. */
    Uni<Run> task(String taskId, Assistant a, Principal caller) {
        return runs.get(taskId).chain(found -> {
            if (found.isEmpty() || !found.get().assistantId().equals(a.assistantId())) {
                return Uni.createFrom().failure(JsonRpcError.taskNotFound(taskId));
            }
            Run run = found.get();
            return submission.visible(run.threadId(), caller)
                    .onFailure(NotFoundException.class).transform(f -> JsonRpcError.taskNotFound(taskId)).replaceWith(run);
        });
    }

    /**
     * The task as it stands: a run in flight from its record; an ended one read again from the log's frames (its
     * artifacts and final status), or, once the log no longer keeps it, from its record alone.
     */
    void read(Run run, Context context, Consumer<ObjectNode> answer) {
        if (run.status().finished()) {
            ThreadEventLog.Subscription s = logs.log(A2aFormat.NAME, run.threadId()).subscribeRun(run.runId(), -1,
                    new A2aStreamEnd(run.runId(), run.threadId(), new TaskAnswer(context, answer)));
            if (s != null) {
                return;
            }
        }
        if (run.status() != RunStatus.INTERRUPTED) {
            answer.accept(fromRecord(run, A2aJson.state(run.status())));
            return;
        }
        // the record says interrupted for a cancel and for a question alike: the thread says which
        question(run).subscribe().with(
                q -> context.runOnContext(v -> answer.accept(q.map(x -> asking(run, x)).orElseGet(() -> fromRecord(run, A2aJson.CANCELED)))),
                f -> context.runOnContext(v -> answer.accept(fromRecord(run, A2aJson.CANCELED))));
    }

    /** The question of this run the thread still stands at: its newest checkpoint is the run's, and waits for an answer. */
    private Uni<Optional<Interrupt>> question(Run run) {
        RegisteredGraph g = assistants.graphs().byGraphId(String.valueOf(run.spec().graphId()));
        if (g == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return g.graph().stateLeftBy(run.threadId(), run.runId())
                .map(s -> s.flatMap(snapshot -> snapshot.interrupts().stream().filter(Interrupt::answerable).findFirst()));
    }

    /** The task {@code input-required}, with its question as the live stream gave it ({@link A2aEvents}). */
    private static ObjectNode asking(Run run, Interrupt x) {
        return A2aJson.task(run.runId(), run.threadId(), A2aJson.status(A2aJson.INPUT_REQUIRED, updatedAt(run),
                A2aEvents.asking(x, run.runId(), run.threadId())));
    }

    /** {@code tasks/cancel}: a task in flight is stopped ({@code canceled}); an ended one cannot be. */
    Uni<ObjectNode> cancel(Run run) {
        if (run.status().finished()) {
            return Uni.createFrom().failure(new JsonRpcError(JsonRpcError.TASK_NOT_CANCELABLE,
                    "Task cannot be canceled: task " + run.runId() + " has ended (" + run.status().wire() + ")"));
        }
        // the record read before the cancel holds the last lease renewal's time: the task was canceled now
        return executor.cancel(run, RunExecutor.StopReason.INTERRUPT)
                .map(x -> A2aJson.task(run.runId(), run.threadId(), A2aJson.status(A2aJson.CANCELED, System.currentTimeMillis(), null)));
    }

    private static ObjectNode fromRecord(Run run, String state) {
        return A2aJson.task(run.runId(), run.threadId(), A2aJson.status(state, updatedAt(run), null));
    }

    private static long updatedAt(Run run) {
        return (run.updatedAt() != null ? run.updatedAt() : run.createdAt()).toEpochMilli();
    }

    /** The params' task id, required. */
    static String taskId(JsonNode params) {
        JsonNode id = params.get("id");
        if (id == null || !id.isTextual() || id.asText().isEmpty()) {
            throw JsonRpcError.invalidParams("id (the task's id) must be a non-empty string");
        }
        return id.asText();
    }
}
