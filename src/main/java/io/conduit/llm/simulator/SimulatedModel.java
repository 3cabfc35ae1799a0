package io.conduit.llm.simulator;

import io.quarkus.runtime.Startup;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Arrays;
import org.jboss.logging.Logger;

/**
 * The simulated model's mind, shared by the HTTP endpoint and the in-process model: a summary for a summarization
 * request, else what the script says; with {@code conduit.simulator.reasoning}, a short deterministic thought first.
 * Built at start-up when the endpoint is on (and by the in-process model when it is chosen), so that a broken script
 * stops the service with its location rather than failing a request.
 */
@Singleton
@Startup
class SimulatedModel {

    private static final Logger LOG = Logger.getLogger(SimulatedModel.class);

    private final SimulatorScript script;
    private final boolean reasoning;

    @Inject
    SimulatedModel(SimulatorConfig config) {
        this(config.enabled() ? SimulatorScript.load(config.script().orElse(null)) : null, config.reasoning());
        if (config.enabled()) {
            LOG.infof("Simulator: an OpenAI-compatible model at /simulator/v1, scripted by %s", scriptName(config));
        }
    }

    SimulatedModel(SimulatorScript script, boolean reasoning) {
        this.script = script;
        this.reasoning = reasoning;
    }

    /** The configured script, loaded and checked now. */
    static SimulatedModel load(SimulatorConfig config) {
        return new SimulatedModel(SimulatorScript.load(config.script().orElse(null)), config.reasoning());
    }

    static String scriptName(SimulatorConfig config) {
        return config.script().orElse("classpath:" + SimulatorScript.CLASSPATH_SCRIPT);
    }

    SimulatedReply reply(CompletionRequest request) {
        boolean summary = ConversationSummary.isRequested(request);
        SimulatedReply reply = summary ? SimulatedReply.text(ConversationSummary.of(request)) : script.reply(request);
        return reasoning ? reply.withReasoning(thought(request, summary, reply)) : reply;
    }

    private static String thought(CompletionRequest request, boolean summary, SimulatedReply reply) {
        String[] words = request.lastUserText().strip().split("\\s+");
        String topic = String.join(" ", Arrays.copyOf(words, Math.min(8, words.length)));
        String plan = summary ? "summarize the conversation" : reply.callsTools() ? "call " + reply.toolCalls().size() + " tool(s)" : "answer";
        return "The user said: \"" + topic + "\". I will " + plan + ".";
    }
}
