package io.conduit.llm;

import io.conduit.agent.port.ModelRole;
import io.quarkus.runtime.LaunchMode;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and how to reach the model, with the defaults applied. {@link LlmProvider#SIMULATED} chosen explicitly is the
 * in-process simulated model in every mode. With no key and no base URL, the simulated model stands in
 * ({@code standIn}, said in one WARN line): in dev, the in-process one; in test, the HTTP endpoint on this service's
 * own port, so that the suite runs the OpenAI provider path end to end; in prod, start-up fails with a clear message.
 */
public record LlmEndpoint(LlmProvider provider, String baseUrl, String apiKey, String model, String summarizerModel,
                          Double temperature, Duration timeout, boolean standIn) {

    /** Sent where no key is needed (simulator, local servers): the clients refuse a missing key. */
    static final String PLACEHOLDER_KEY = "no-key";

    public LlmEndpoint {
        summarizerModel = summarizerModel == null || summarizerModel.isBlank() ? model : summarizerModel;
    }

    /**
     * @param simulatorPort the port of this service's own HTTP server, where the simulator's endpoint is mounted
     */
    public static LlmEndpoint resolve(LlmConfig config, LaunchMode mode, int simulatorPort) {
        LlmProvider provider = config.provider();
        Optional<String> key = config.apiKey().map(String::strip).filter(k -> !k.isEmpty());
        Optional<String> baseUrl = config.baseUrl().map(String::strip).filter(u -> !u.isEmpty());
        String summarizer = config.summarizer().model().orElse(null);
        Double temperature = config.temperature().orElse(null);

        if (provider == LlmProvider.SIMULATED) {
            return simulated(config, summarizer, false);
        }
        String model = config.model().filter(m -> !m.isBlank()).orElse(provider.defaultModel());
        if (key.isPresent()) {
            return new LlmEndpoint(provider, baseUrl.orElse(provider.defaultBaseUrl()), key.get(), model, summarizer,
                    temperature, config.timeout(), false);
        }
        if (baseUrl.isPresent()) {
            // a self-hosted server (vLLM, Ollama, llama.cpp) usually needs no key
            return new LlmEndpoint(provider, baseUrl.get(), PLACEHOLDER_KEY, model, summarizer, temperature,
                    config.timeout(), false);
        }
        if (provider == LlmProvider.OPENAI && mode == LaunchMode.DEVELOPMENT) {
            return simulated(config, summarizer, true);
        }
        if (provider == LlmProvider.OPENAI && mode == LaunchMode.TEST) {
            return new LlmEndpoint(provider, "http://localhost:" + simulatorPort + "/simulator/v1", PLACEHOLDER_KEY,
                    model, summarizer, temperature, config.timeout(), true);
        }
        throw new IllegalStateException("LLM: no API key set for provider " + provider.id()
                + " (conduit.llm.api-key" + (provider == LlmProvider.OPENAI ? " / OPENAI_API_KEY" : "")
                + ") and no conduit.llm.base-url: set a key, or point conduit.llm.base-url at a server that needs none"
                + (provider == LlmProvider.OPENAI ? " (vLLM, Ollama, llama.cpp)" : "")
                + ", or choose conduit.llm.provider=simulated for scripted answers without a model");
    }

    /** The in-process model; the name responses report is {@code conduit.llm.model} when set. */
    private static LlmEndpoint simulated(LlmConfig config, String summarizer, boolean standIn) {
        String model = config.model().filter(m -> !m.isBlank()).orElse(LlmProvider.SIMULATED.defaultModel());
        return new LlmEndpoint(LlmProvider.SIMULATED, null, null, model, summarizer, null, config.timeout(), standIn);
    }

    /** The in-process simulated model, not a server. */
    public boolean inProcess() {
        return provider == LlmProvider.SIMULATED;
    }

    /** The one line logged when the simulated model stands in for a model because no key is set. */
    public String standInWarning() {
        return "LLM: no API key set (conduit.llm.api-key / OPENAI_API_KEY): using the "
                + (inProcess() ? "simulated model in-process (conduit.llm.provider=simulated)" : "built-in simulator at " + baseUrl)
                + " - answers are scripted, not a real model";
    }

    String modelFor(ModelRole role) {
        return role == ModelRole.SUMMARIZER ? summarizerModel : model;
    }
}
