package io.conduit.llm;

/** The provider families Conduit speaks to, with the name used in config, logs and error messages. */
public enum LlmProvider {
    OPENAI("openai", "https://api.openai.com/v1", "gpt-4o-mini"),
    MISTRAL("mistral", "https://api.mistral.ai/v1", "mistral-small-latest");

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

    public String defaultBaseUrl() {
        return defaultBaseUrl;
    }

    public String defaultModel() {
        return defaultModel;
    }
}
