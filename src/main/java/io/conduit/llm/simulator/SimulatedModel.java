package io.conduit.llm.simulator;

import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.Arrays;
import org.jboss.logging.Logger;

/**
 * The simulated model's mind: a summary for a summarization request, else what the script says; with
 * {@code conduit.simulator.reasoning}, a short deterministic thought first. Built at start-up when the simulator is
 * on, so that a broken script stops the service with its location rather than failing a request.
 */
@Singleton
@Startup
class SimulatedModel {

    private static final Logger LOG = Logger.getLogger(SimulatedModel.class);

    private final SimulatorScript script;
    private final boolean reasoning;

    SimulatedModel(SimulatorConfig config) {
        this.script = config.enabled() ? SimulatorScript.load(config.script().orElse(null)) : null;
        this.reasoning = config.reasoning();
        if (config.enabled()) {
            LOG.infof("Simulator: an OpenAI-compatible model at /simulator/v1, scripted by %s",
                    config.script().orElse("classpath:" + SimulatorScript.CLASSPATH_SCRIPT));
        }
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
