package io.conduit.agui;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.GraphException;
import io.conduit.graph.StateSnapshot;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.Run;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How AG-UI starts and follows runs, for every transport: the run request is built from the input and the thread as
 * it is ({@link AgUiRunBody}) and handed to {@link RunSubmission}, as {@code POST /threads/{id}/runs/stream} would
 * (same run records, multitask rules, checkpoints); then the run is read from the thread's log in AG-UI's format
 * ({@link AgUiFormat}, translated once by {@link AgUiEvents}) and its frames handed to the transport's bounded outbox.
 */
@ApplicationScoped
public class AgUiRuns {

    /** A stored run. */
    record Started(Run run, boolean cancelOnDisconnect) {
    }

    private final RunSubmission submission;
    private final Assistants assistants;
    private final ThreadLogs logs;
    private final RunExecutor executor;

    AgUiRuns(RunSubmission submission, Assistants assistants, ThreadLogs logs, RunExecutor executor) {
        this.submission = submission;
        this.assistants = assistants;
        this.logs = logs;
        this.executor = executor;
    }

    /**
     * Stores the run. Fails with {@link io.conduit.runs.InvalidInputException} and the submission's own errors for bad
     * input, and with {@link AgUiRunBody.Refusal} for a resume that does not fit the thread: nothing is written then.
     */
    Uni<Started> start(String assistantRef, RunAgentInput input, Principal caller) {
        return submission.visible(input.threadId(), caller).chain(() -> assistants.resolve(assistantRef, caller))
                .chain(a -> assistants.graph(a).graph().state(input.threadId())
                        .onFailure(f -> f instanceof GraphException g && g.code() == GraphException.Code.UNKNOWN_THREAD)
                        .recoverWithItem(Optional.<StateSnapshot>empty()))
                .chain(thread -> {
                    ObjectNode body = AgUiRunBody.of(assistantRef, input, thread);
                    return submission.submit(input.threadId(), body, true, caller)
                            .map(sub -> new Started(sub.run(), sub.cancelOnDisconnect()))
                            .onFailure(InvalidInputException.class).transform(f -> named((InvalidInputException) f, body, input));
                });
    }

    private static final Pattern RUN_MESSAGE = Pattern.compile("^(input|command\\.update)\\.messages\\[(\\d+)](.*)$");

    /**
     * A refusal of one of the run's messages ({@code input.messages[k]}, or {@code command.update.messages[k]} with a
     * resume), named as the client sent it: {@code messages[i]} of its RunAgentInput, found by the message's id.
     */
    static RuntimeException named(InvalidInputException e, JsonNode body, RunAgentInput input) {
        Matcher m = RUN_MESSAGE.matcher(e.field() == null ? "" : e.field());
        if (!m.matches()) {
            return e;
        }
        JsonNode sent = (m.group(1).equals("input") ? body.path("input") : body.path("command").path("update"))
                .path("messages").path(Integer.parseInt(m.group(2)));
        for (int i = 0; i < input.messages().size(); i++) {
            if (input.messages().get(i).path("id").asText().equals(sent.path("id").asText(null))) {
                String reason = e.getMessage().startsWith(e.field() + ": ") ? e.getMessage().substring(e.field().length() + 2) : e.getMessage();
                return new InvalidInputException("messages[" + i + "]" + m.group(3), reason);
            }
        }
        return e;
    }

    /**
     * Feeds {@code sink} the run's AG-UI frames from its start, then ends it after the run's last event
     * ({@link AgUiRunFollower}); returns what stops following. The run's log segment opened when it was submitted.
     */
    Runnable follow(Started s, RunEventListener sink) {
        return AgUiRunFollower.follow(logs.log(AgUiFormat.NAME, s.run().threadId()), s.run().runId(), sink);
    }

    /** Stops the run (its client went away and it asked for that). */
    void cancel(Started s) {
        executor.cancel(s.run(), RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
    }
}
