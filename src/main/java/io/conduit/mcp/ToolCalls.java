package io.conduit.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.auth.Principal;
import io.conduit.http.ErrorBody;
import io.conduit.http.RunWaits;
import io.conduit.http.answer.AnswerFormat;
import io.conduit.http.answer.RunAnswers;
import io.conduit.http.answer.WholeAnswer;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import io.conduit.runs.Run;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * {@code tools/call}: the named assistant answers the tool's {@code input} as one user message, in a stateless run
 * (a temporary thread, deleted after the run, as LangGraph's {@code /mcp} does) submitted as any run is
 * ({@link RunSubmission}: the caller's limits and ownership), read whole from the answer format ({@link RunAnswers})
 * and returned as text. A run that fails is a tool result with {@code isError}, which the calling model reads; a call
 * that names no tool of the caller's or breaks the tool's input schema is a JSON-RPC error (-32602).
 */
@ApplicationScoped
public class ToolCalls {

    private final AssistantTools tools;
    private final RunSubmission submission;
    private final RunAnswers answers;
    private final RunExecutor executor;
    private final RunWaits waits;

    ToolCalls(AssistantTools tools, RunSubmission submission, RunAnswers answers, RunExecutor executor, RunWaits waits) {
        this.tools = tools;
        this.submission = submission;
        this.answers = answers;
        this.executor = executor;
        this.waits = waits;
    }

    /**
     * The call's result. The caller cancels it when its client goes away, and is handed, through {@code onClose}, what
     * then stops the run too (nobody else could read its answer). The wait holds a stream permit ({@link RunWaits}):
     * bounded with the streams, and ended when the replica drains (the run resumes elsewhere; the caller asks again).
     */
    Uni<JsonNode> call(ObjectNode params, Principal caller, Context context, Consumer<Runnable> onClose) {
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual() || name.textValue().isEmpty()) {
            return Uni.createFrom().failure(JsonRpc.Failure.invalidParams("Invalid params: name must be the name of a tool (tools/list)."));
        }
        String input;
        try {
            input = input(name.textValue(), params.get("arguments"));
        } catch (JsonRpc.Failure f) {
            return Uni.createFrom().failure(f);
        }
        return tools.named(name.textValue(), caller).chain(tool -> {
            if (tool.isEmpty()) {
                return Uni.createFrom().failure(JsonRpc.Failure.invalidParams("Unknown tool: " + name.textValue() + " (tools/list names the tools)."));
            }
            // registered before the submission: a client gone while it is in flight stops the run the moment it exists
            RunStop stop = new RunStop();
            onClose.accept(stop::closed);
            // memoized: the call cancelled (its client gone) does not cancel the submission, so its run is still seen
            Uni<WholeAnswer> answered = submission.submit(null, body(tool.get().assistant().assistantId(), input), false, caller)
                    .invoke(sub -> stop.started(sub.run()))
                    .memoize().indefinitely()
                    .chain(sub -> answers.whole(sub.run(), context));
            return waits.untilEnd(answered)
                    .onFailure().transform(ToolCalls::refusal)
                    .map(ToolCalls::result)
                    .onFailure(Refused.class).recoverWithItem(f -> error(f.getMessage()));
        });
    }

    /** Stops a call's run once both have happened: the run was submitted and the client went away (whichever comes last). */
    private final class RunStop {
        private final AtomicReference<Run> run = new AtomicReference<>();
        private final AtomicBoolean closed = new AtomicBoolean();
        private final AtomicBoolean stopped = new AtomicBoolean();

        void started(Run r) {
            run.set(r);
            stopIfBoth();
        }

        void closed() {
            closed.set(true);
            stopIfBoth();
        }

        private void stopIfBoth() {
            Run r = run.get();
            if (r != null && closed.get() && stopped.compareAndSet(false, true)) {
                executor.cancel(r, RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
            }
        }
    }

    /** The tool's one argument, checked against its input schema ({@link AssistantTools#json}). */
    static String input(String tool, JsonNode arguments) {
        if (arguments == null || !arguments.isObject()) {
            throw JsonRpc.Failure.invalidParams("Invalid arguments for tool " + tool + ": arguments must be an object with "
                    + AssistantTools.INPUT + " (a string).");
        }
        for (Iterator<String> it = arguments.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!AssistantTools.INPUT.equals(field)) {
                throw JsonRpc.Failure.invalidParams("Invalid arguments for tool " + tool + ": " + field + " is not an argument; the tool takes "
                        + AssistantTools.INPUT + " only.");
            }
        }
        JsonNode input = arguments.get(AssistantTools.INPUT);
        if (input == null || !input.isTextual() || input.textValue().isBlank()) {
            throw JsonRpc.Failure.invalidParams("Invalid arguments for tool " + tool + ": " + AssistantTools.INPUT + " must be a non-empty string.");
        }
        return input.textValue();
    }

    private static ObjectNode body(String assistantId, String input) {
        ObjectNode body = JsonCodec.MAPPER.createObjectNode().put("assistant_id", assistantId).put("on_disconnect", "cancel");
        body.set("stream_mode", JsonCodec.MAPPER.valueToTree(AnswerFormat.STREAM_MODES));
        body.putObject("metadata").put("source", "mcp");
        body.putObject("input").putArray("messages").addObject().put("role", "user").put("content", input);
        return body;
    }

    /**
     * A run refused before it began, or a wait cut short: its input refused (422: too long, text a store cannot keep) is
     * the arguments' fault, an invalid params error; anything else (a limit, a full replica, a replica draining) a tool
     * error the caller can read, and may try again.
     */
    private static Throwable refusal(Throwable f) {
        if (f instanceof JsonRpc.Failure) {
            return f;
        }
        ErrorBody e = ErrorBody.of(f);
        if (e.status() == 422 || e.status() == 400) {
            return JsonRpc.Failure.invalidParams("Invalid arguments: " + e.detail().replace("input.messages[0].content", AssistantTools.INPUT));
        }
        return new Refused(e);
    }

    /** A call not answered here, told as a tool error rather than a protocol one: a caller may try again. */
    private static final class Refused extends RuntimeException {
        Refused(ErrorBody error) {
            super("The call was not answered (" + error.code() + "): " + error.detail(), null, false, false);
        }
    }

    static JsonNode result(WholeAnswer answer) {
        return answer.failed() ? error("The run failed: " + answer.failure()) : text(answer.plainText(), false);
    }

    static JsonNode error(String message) {
        return text(message, true);
    }

    private static ObjectNode text(String text, boolean isError) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        out.putArray("content").addObject().put("type", "text").put("text", text);
        out.put("isError", isError);
        return out;
    }
}
