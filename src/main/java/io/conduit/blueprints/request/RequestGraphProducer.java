package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.Update;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.graphs.RegisteredGraph;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;

/** Serves the request graph as the assistant {@code request}. */
@ApplicationScoped
public class RequestGraphProducer {

    static final int MAX_MESSAGE_CHARS = 100_000;

    @Produces
    @Singleton
    RegisteredGraph request(RequestConfig config, LanguageModel model, ToolBox tools, Checkpointer store) {
        // the tool box is built now, at start: built lazily by the first call inside a run, its @ConfigMapping
        // (ToolsConfig) failed to be created (ArC: "a synthetic injection point was not declared for InjectionPoint")
        tools.specs();
        return new RegisteredGraph("request", "Clarify, plan, solve and validate one request, with retry budgets and timeouts",
                () -> RequestGraph.compile(config, model, tools, store), INPUT, RequestSettings.SCHEMA, RequestSettings::check);
    }

    /** What a run's input sets: the request ({@code {"input": {"message": ...}}}); the rest is the graph's own. */
    private static final Set<String> FIELDS = Set.of(RequestState.INPUT.name());

    /** The request graph's input: the request, with a message (a resume brings a command, not an input). */
    static final RegisteredGraph.InputPolicy INPUT = new RegisteredGraph.InputPolicy() {
        @Override
        public void check(Update input) {
            RequestGraphProducer.check(input);
        }

        @Override
        public Set<String> fields() {
            return FIELDS;
        }
    };

    /** A turn's input needs a request with a message; a resume brings none. */
    static void check(Update input) {
        RegisteredGraph.InputPolicy.only(FIELDS, input);
        if (input.writes().stream().noneMatch(w -> w.value() instanceof RequestInput)) {
            throw new InvalidInputException("input.input", "is required: the request graph takes {\"input\": {\"message\": \"...\"}}");
        }
        for (Update.Write w : input.writes()) {
            if (w.value() instanceof RequestInput in) {
                if (in.message().isBlank()) {
                    throw new InvalidInputException("input.input.message", "is required");
                }
                if (in.message().length() > MAX_MESSAGE_CHARS || in.message().indexOf('\0') >= 0) {
                    throw new InvalidInputException("input.input.message", "must be at most " + MAX_MESSAGE_CHARS + " characters, without NUL");
                }
            }
        }
    }
}
