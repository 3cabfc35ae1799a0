package io.conduit.llm;

/**
 * The provider families Conduit speaks to, with the name used in config, logs and error messages. {@link #SIMULATED}
 * is no server: the scripted model inside the JVM (docs/simulator.md), which needs no key and no base URL.
 */
public enum LlmProvider {
    OPENAI("openai", "https://api.openai.com/v1", "gpt-4o-mini"),
    MISTRAL("mistral", "https://api.mistral.ai/v1", "mistral-small-latest"),
    SIMULATED("simulated", null, "conduit-simulator");

    private final String id;
    private final String defaultBaseUrl;
    private final String defaultModel;

    LlmProvider(String id, String defaultBaseUrl, String defaultModel) {
        this.id = id;
        this.defaultBaseUrl = defaultBaseUrl;
        this.defaultModel = defaultModel;
    }

    public String id() {
        return id;
    }

    /** Null for {@link #SIMULATED}, which is reached without HTTP. */
    public String defaultBaseUrl() {
        return defaultBaseUrl;
    }

    public String defaultModel() {
        return defaultModel;
    }
}
