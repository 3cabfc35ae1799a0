package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.Update;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.RegisteredGraph;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

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
                RequestGraph.compile(config, model, tools, store), RequestGraphProducer::check, RequestSettings.SCHEMA, RequestSettings::check);
    }

    /** A turn's input needs a message; a resume brings none. */
    static void check(Update input) {
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
