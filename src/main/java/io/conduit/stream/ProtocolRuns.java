package io.conduit.stream;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.StreamMode;
import io.conduit.runs.submission.RunSubmission;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * How the protocol's commands start runs: an Agent Server run request built from the command and handed to
 * {@link RunSubmission}, as {@code POST /threads/{id}/runs} would, so validation, multitask rules, checkpoints and
 * interrupts are the classic API's. A protocol run streams every mode, subgraphs included, and says it is one
 * ({@code __protocol_stream_run}, as LangGraph's server marks it).
 */
final class ProtocolRuns {

    static final List<StreamMode> MODES = List.of(StreamMode.VALUES, StreamMode.UPDATES, StreamMode.MESSAGES_TUPLE, StreamMode.CUSTOM,
            StreamMode.TASKS, StreamMode.CHECKPOINTS);

    private final RunSubmission submission;
    private final RunStore runs;

    ProtocolRuns(RunSubmission submission, RunStore runs) {
        this.submission = submission;
        this.runs = runs;
    }

    /** A run request body with the protocol's defaults; the caller adds input or command. */
    static ObjectNode body(String assistantId, ObjectNode params) {
        ObjectNode b = JsonCodec.MAPPER.createObjectNode().put("assistant_id", assistantId).put("if_not_exists", "create")
                .put("stream_subgraphs", true).put("__protocol_stream_run", true);
        b.set("stream_mode", JsonCodec.MAPPER.valueToTree(MODES));
        for (String k : new String[]{"config", "metadata"}) {
            if (params.hasNonNull(k)) {
                b.set(k, params.get(k));
            }
        }
        JsonNode strategy = params.hasNonNull("multitask_strategy") ? params.get("multitask_strategy") : params.get("multitaskStrategy");
        if (strategy != null && !strategy.isNull()) {
            b.set("multitask_strategy", strategy);
        }
        return b;
    }

    Uni<Run> start(String threadId, ObjectNode body, Principal caller) {
        return submission.submit(threadId, body, true, caller).map(RunSubmission.Submitted::run);
    }

    /** The thread's newest run; fails with {@code no_such_run} when it has none. */
    Uni<Run> latest(String threadId) {
        return runs.listByThread(threadId, 1, 0, null).map(list -> {
            if (list.isEmpty()) {
                throw new ProtocolException("no_such_run", "Thread " + threadId + " has no run; call run.start first.");
            }
            return list.get(0);
        });
    }

    static ObjectNode runId(Run r) {
        return JsonCodec.MAPPER.createObjectNode().put("run_id", r.runId());
    }
}
