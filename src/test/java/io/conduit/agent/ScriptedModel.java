package io.conduit.agent;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelEvent;
import io.conduit.agent.port.ModelException;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.smallrye.mutiny.Multi;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link LanguageModel} that plays scripted answers in order, text word by word and tool calls in pieces, and
 * records what it was asked. A stand-in at the port for stage tests; the real providers are tested against stub
 * servers in io.conduit.llm.
 */
final class ScriptedModel implements LanguageModel {

    private static final int ARGUMENT_PIECE = 5;

    record Answer(String text, List<ToolCall> toolCalls) {
    }

    private final Deque<Answer> answers = new ConcurrentLinkedDeque<>();
    final List<ModelRequest> requests = new CopyOnWriteArrayList<>();

    ScriptedModel says(String text) {
        answers.add(new Answer(text, List.of()));
        return this;
    }

    ScriptedModel calls(ToolCall... calls) {
        return answers("", calls);
    }

    /** Text, then tool calls, in one answer. */
    ScriptedModel answers(String text, ToolCall... calls) {
        answers.add(new Answer(text, List.of(calls)));
        return this;
    }

    @Override
    public Multi<ModelEvent> stream(ModelRequest request) {
        requests.add(request);
        Answer a = answers.poll();
        if (a == null) {
            return Multi.createFrom().failure(new ModelException("scripted", "no answer left for " + request.role(), null));
        }
        List<ModelEvent> events = new ArrayList<>();
        for (String word : a.text().split("(?<= )")) {
            if (!word.isEmpty()) {
                events.add(new ModelEvent.Token(word));
            }
        }
        // tool calls stream as providers send them: id and name first, then the arguments in pieces
        for (int i = 0; i < a.toolCalls().size(); i++) {
            ToolCall call = a.toolCalls().get(i);
            events.add(new ModelEvent.ToolCallDelta(i, call.id(), call.name(), ""));
            for (int k = 0; k < call.arguments().length(); k += ARGUMENT_PIECE) {
                events.add(new ModelEvent.ToolCallDelta(i, null, null,
                        call.arguments().substring(k, Math.min(call.arguments().length(), k + ARGUMENT_PIECE))));
            }
        }
        int in = TokenEstimate.of(request.messages());
        int out = TokenEstimate.of(a.text());
        events.add(new ModelEvent.Completed(new ModelResponse(a.text(), a.toolCalls(), null, "scripted", "script-1",
                in, out, a.toolCalls().isEmpty() ? "stop" : "tool_calls", 0, 0, (in + out) / 1e6)));
        return Multi.createFrom().iterable(events);
    }

    List<ModelRole> roles() {
        return requests.stream().map(ModelRequest::role).toList();
    }
}
