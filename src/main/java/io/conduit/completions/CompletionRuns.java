package io.conduit.completions;

import io.conduit.auth.Principal;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.http.answer.AnswerFormat;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Assistant;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.submission.RunSubmission;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Starts the run that answers a chat completion, as the Agent Server API would ({@link RunSubmission}: the same run
 * record, multitask rules and event logs). The model is the assistant, of a graph that holds chat messages. A conversation appends only its newest user
 * message to its thread (created on first use; the thread's checkpointed history is the conversation, the request's
 * earlier messages are not read), or, when the thread waits at an interrupt, answers it with that message's text. A
 * call without a conversation runs every message of the request on a temporary thread, deleted after the run, and is
 * cancelled if its client goes away (nobody else could read its answer).
 */
@ApplicationScoped
public class CompletionRuns {

    private static final String MESSAGES = "messages";

    private final RunSubmission submission;
    private final Assistants assistants;

    CompletionRuns(RunSubmission submission, Assistants assistants) {
        this.submission = submission;
        this.assistants = assistants;
    }

    Uni<RunSubmission.Submitted> start(ChatRequest request, boolean streaming, Principal caller) {
        return submission.visible(request.threadId(), caller).chain(() -> assistants.resolve(request.model(), caller))
                .onFailure(NotFoundException.class).transform(f -> new BadCompletionRequest(OpenAiError.modelNotFound(request.model())))
                .invoke(assistant -> {
                    if (!chats(assistants.graph(assistant))) {
                        throw BadCompletionRequest.invalid("model", "model_not_supported", "The model `" + request.model() + "` is an assistant of the graph `"
                                + assistant.graphId() + "`, which holds no chat messages: use the Agent Server API for it.");
                    }
                })
                .chain(assistant -> body(request, assistant))
                .chain(body -> submission.submit(request.threadId(), body, streaming, caller))
                .onFailure(InvalidInputException.class).transform(f -> named(request, (InvalidInputException) f));
    }

    /**
     * A refusal of the run's input, named as the request names it: the run's {@code input.messages[k]} is the request's
     * {@code messages[k]} in a call without a conversation, and the newest user message (the one a conversation appends)
     * in a conversation.
     */
    static RuntimeException named(ChatRequest request, InvalidInputException e) {
        String field = e.field();
        if (field == null || !field.startsWith("input." + MESSAGES)) {
            return e;
        }
        String rest = field.substring(("input." + MESSAGES).length());
        String param = MESSAGES;
        if (rest.startsWith("[") && rest.indexOf(']') > 0) {
            int close = rest.indexOf(']');
            int index = request.threadId() == null ? Integer.parseInt(rest.substring(1, close)) : newestIndex(request);
            param = MESSAGES + "[" + index + "]" + rest.substring(close + 1);
        }
        String reason = e.getMessage().startsWith(field + ": ") ? e.getMessage().substring(field.length() + 2) : e.getMessage();
        return new BadCompletionRequest(OpenAiError.invalid(param, "invalid_value", "Invalid '" + param + "': " + reason + "."));
    }

    private static int newestIndex(ChatRequest request) {
        for (int i = 0; i < request.messages().size(); i++) {
            if (request.messages().get(i) == request.newest()) {
                return i;
            }
        }
        return 0;
    }

    private Uni<ObjectNode> body(ChatRequest request, Assistant assistant) {
        ObjectNode body = JsonCodec.MAPPER.createObjectNode().put("assistant_id", assistant.assistantId());
        body.set("stream_mode", JsonCodec.MAPPER.valueToTree(AnswerFormat.STREAM_MODES));
        body.putObject("metadata").put("source", "openai");
        if (request.threadId() == null) {
            body.put("on_disconnect", "cancel");
            body.putObject("input").set("messages", request.messages());
            return Uni.createFrom().item(body);
        }
        body.put("if_not_exists", "create");
        // a thread of another graph does not read with this one's schema: the submission refuses it (409) by its record
        return assistants.graph(assistant).graph().state(request.threadId())
                .onFailure().recoverWithItem(java.util.Optional.empty()).map(state -> {
            boolean waiting = state.isPresent() && state.get().waitsForAnswer();
            if (waiting) {
                body.putObject("command").put("resume", request.newestText());
            } else {
                body.putObject("input").putArray("messages").add(request.newest());
            }
            return body;
        });
    }

    /** Whether a graph holds a conversation (a {@code messages} channel), which a chat completion appends to. */
    static boolean chats(RegisteredGraph graph) {
        return graph.graph().schema().channel(MESSAGES) != null;
    }
}
