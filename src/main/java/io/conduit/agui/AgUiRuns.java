package io.conduit.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.GraphException;
import io.conduit.graph.StateSnapshot;
import io.conduit.runs.Assistants;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.ProtocolEventLogs;
import io.conduit.runs.ProtocolRunFollower;
import io.conduit.runs.Run;
import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;
import io.conduit.runs.RunEventLogs;
import io.conduit.runs.RunExecutor;
import io.conduit.runs.RunSubmission;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How AG-UI starts and follows runs, for every transport: the run request is built from the input and the thread as
 * it is ({@link AgUiRunBody}) and handed to {@link RunSubmission}, as {@code POST /threads/{id}/runs/stream} would
 * (same run records, multitask rules, checkpoints); then the run's events are read from the thread's protocol log
 * and handed to the transport's bounded outbox, which translates them as it drains ({@link AgUiEvents}).
 */
@ApplicationScoped
public class AgUiRuns {

    /** A stored run, and the protocol log's last seq before it (its events come after). */
    record Started(Run run, boolean cancelOnDisconnect, long afterSeq) {
    }

    private final RunSubmission submission;
    private final Assistants assistants;
    private final ProtocolEventLogs protocol;
    private final RunEventLogs classic;
    private final RunExecutor executor;

    AgUiRuns(RunSubmission submission, Assistants assistants, ProtocolEventLogs protocol, RunEventLogs classic, RunExecutor executor) {
        this.submission = submission;
        this.assistants = assistants;
        this.protocol = protocol;
        this.classic = classic;
        this.executor = executor;
    }

    /**
     * Stores the run. Fails with {@link io.conduit.runs.InvalidInputException} and the submission's own errors for bad
     * input, and with {@link AgUiRunBody.Refusal} for a resume that does not fit the thread: nothing is written then.
     */
    Uni<Started> start(String assistantRef, RunAgentInput input) {
        return assistants.resolve(assistantRef)
                .chain(a -> assistants.graph(a).graph().state(input.threadId())
                        .onFailure(f -> f instanceof GraphException g && g.code() == GraphException.Code.UNKNOWN_THREAD)
                        .recoverWithItem(Optional.<StateSnapshot>empty()))
                .chain(thread -> {
                    long afterSeq = protocol.log(input.threadId()).lastSeq(); // before the run: its events all come after
                    ObjectNode body = AgUiRunBody.of(assistantRef, input, thread);
                    return submission.submit(input.threadId(), body, true)
                            .map(sub -> new Started(sub.run(), sub.cancelOnDisconnect(), afterSeq))
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
     * Feeds {@code sink} the run's protocol events, then ends it when the run ends ({@link ProtocolRunFollower}: a run
     * stopped before it began ends with a {@link ProtocolRunFollower#STOPPED} event); returns what stops following.
     * The sink keeps only what AG-UI has something for ({@link #wanted}).
     */
    Runnable follow(Started s, RunEventListener sink) {
        return ProtocolRunFollower.follow(protocol, classic, s.run(), s.afterSeq(), sink);
    }

    /** Stops the run (its client went away and it asked for that). */
    void cancel(Started s) {
        executor.cancel(s.run(), RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
    }

    /** The events of a run that AG-UI has something for: the filter of a transport's outbox. */
    static boolean wanted(RunEvent e) {
        String m = e.mode();
        return m.equals("lifecycle") || m.equals("messages") || m.equals("updates") || m.equals("values") || m.equals("input.requested")
                || m.equals("custom") || m.startsWith("custom:") || m.equals(ProtocolRunFollower.STOPPED);
    }
}
