package io.conduit.llm;

import io.conduit.agent.port.ModelRole;
import io.quarkus.runtime.LaunchMode;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and how to reach the model, with the defaults applied: the built-in simulator in dev and test when no key and
 * no base URL are set, a clear start-up failure in prod.
 */
public record LlmEndpoint(LlmProvider provider, String baseUrl, String apiKey, String model, String summarizerModel,
                          Double temperature, Duration timeout, boolean simulator) {

    /** Sent where no key is needed (simulator, local servers): the clients refuse a missing key. */
    static final String PLACEHOLDER_KEY = "no-key";

    public LlmEndpoint {
        summarizerModel = summarizerModel == null || summarizerModel.isBlank() ? model : summarizerModel;
    }

    /**
     * @param simulatorPort the port of this service's own HTTP server, where the simulator is mounted
     */
    public static LlmEndpoint resolve(LlmConfig config, LaunchMode mode, int simulatorPort) {
        LlmProvider provider = config.provider();
        Optional<String> key = config.apiKey().map(String::strip).filter(k -> !k.isEmpty());
        Optional<String> baseUrl = config.baseUrl().map(String::strip).filter(u -> !u.isEmpty());
        String model = config.model().filter(m -> !m.isBlank()).orElse(provider.defaultModel());
        String summarizer = config.summarizer().model().orElse(null);
        Double temperature = config.temperature().orElse(null);

        if (key.isPresent()) {
            return new LlmEndpoint(provider, baseUrl.orElse(provider.defaultBaseUrl()), key.get(), model, summarizer,
                    temperature, config.timeout(), false);
        }
        if (baseUrl.isPresent()) {
            // a self-hosted server (vLLM, Ollama, llama.cpp) usually needs no key
            return new LlmEndpoint(provider, baseUrl.get(), PLACEHOLDER_KEY, model, summarizer, temperature,
                    config.timeout(), false);
        }
        if (provider == LlmProvider.OPENAI && (mode == LaunchMode.DEVELOPMENT || mode == LaunchMode.TEST)) {
            return new LlmEndpoint(provider, "http://localhost:" + simulatorPort + "/simulator/v1", PLACEHOLDER_KEY,
                    model, summarizer, temperature, config.timeout(), true);
        }
        throw new IllegalStateException("LLM: no API key set for provider " + provider.id()
                + " (conduit.llm.api-key" + (provider == LlmProvider.OPENAI ? " / OPENAI_API_KEY" : "")
                + ") and no conduit.llm.base-url: set a key, or point conduit.llm.base-url at a server that needs none"
                + (provider == LlmProvider.OPENAI ? " (vLLM, Ollama, llama.cpp)" : ""));
    }

    /** The one line logged when the simulator stands in for a model. */
    public String simulatorWarning() {
        return "LLM: no API key set (conduit.llm.api-key / OPENAI_API_KEY): using the built-in simulator at " + baseUrl
                + " - answers are scripted, not a real model";
    }

    String modelFor(ModelRole role) {
        return role == ModelRole.SUMMARIZER ? summarizerModel : model;
    }
}
