package io.conduit.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.conduit.agent.port.ModelRole;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code conduit.llm.*} as SmallRye Config reads it, and the endpoint it resolves to in each launch mode. */
class LlmEndpointTest {

    private static LlmConfig config(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(LlmConfig.class)
                // Quarkus's duration format ("500ms", "60s"), as the application reads it
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
        return config.getConfigMapping(LlmConfig.class);
    }

    @Test
    void noKeyInDevMeansTheSimulatedModelInProcessSaidInAWarning() {
        LlmEndpoint dev = LlmEndpoint.resolve(config(Map.of()), LaunchMode.DEVELOPMENT, 8080);

        assertThat(dev.inProcess()).isTrue();
        assertThat(dev.standIn()).isTrue();
        assertThat(dev.provider()).isEqualTo(LlmProvider.SIMULATED);
        assertThat(dev.model()).isEqualTo("conduit-simulator");
        assertThat(dev.standInWarning()).isEqualTo("LLM: no API key set (conduit.llm.api-key / OPENAI_API_KEY): "
                + "using the simulated model in-process (conduit.llm.provider=simulated) - answers are scripted, not a real model");
    }

    @Test
    void noKeyInTestMeansTheSimulatorsHttpEndpointOnThisServicesOwnPortSoTheOpenAiPathIsExercised() {
        LlmEndpoint test = LlmEndpoint.resolve(config(Map.of()), LaunchMode.TEST, 8081);

        assertThat(test.inProcess()).isFalse();
        assertThat(test.standIn()).isTrue();
        assertThat(test.provider()).isEqualTo(LlmProvider.OPENAI);
        assertThat(test.baseUrl()).isEqualTo("http://localhost:8081/simulator/v1");
        assertThat(test.apiKey()).isNotBlank();
        assertThat(test.standInWarning()).isEqualTo("LLM: no API key set (conduit.llm.api-key / OPENAI_API_KEY): "
                + "using the built-in simulator at http://localhost:8081/simulator/v1 - answers are scripted, not a real model");
    }

    @Test
    void theSimulatedProviderChosenExplicitlyIsInProcessInEveryModeWithoutAWarning() {
        for (LaunchMode mode : LaunchMode.values()) {
            LlmEndpoint endpoint = LlmEndpoint.resolve(config(Map.of("conduit.llm.provider", "simulated")), mode, 8080);
            assertThat(endpoint.inProcess()).as(mode.name()).isTrue();
            assertThat(endpoint.standIn()).as(mode.name()).isFalse();
        }
        LlmEndpoint named = LlmEndpoint.resolve(config(Map.of("conduit.llm.provider", "simulated", "conduit.llm.model", "gpt-4o-mini",
                "conduit.llm.api-key", "sk-ignored", "conduit.llm.summarizer.model", "small")), LaunchMode.NORMAL, 8080);
        assertThat(named.inProcess()).isTrue();
        assertThat(named.model()).isEqualTo("gpt-4o-mini");
        assertThat(named.modelFor(ModelRole.SUMMARIZER)).isEqualTo("small");
    }

    @Test
    void noKeyAndNoBaseUrlInProdStopsStartUpWithAClearMessage() {
        assertThatThrownBy(() -> LlmEndpoint.resolve(config(Map.of("conduit.llm.api-key", "")), LaunchMode.NORMAL, 8080))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no API key set for provider openai")
                .hasMessageContaining("conduit.llm.api-key / OPENAI_API_KEY")
                .hasMessageContaining("conduit.llm.base-url")
                .hasMessageContaining("conduit.llm.provider=simulated");
    }

    @Test
    void aBaseUrlWithoutAKeyIsASelfHostedServerInEveryMode() {
        LlmEndpoint endpoint = LlmEndpoint.resolve(config(Map.of("conduit.llm.base-url", "http://gpu-box:8000/v1",
                "conduit.llm.model", "Qwen/Qwen3-8B")), LaunchMode.NORMAL, 8080);

        assertThat(endpoint.standIn()).isFalse();
        assertThat(endpoint.baseUrl()).isEqualTo("http://gpu-box:8000/v1");
        assertThat(endpoint.model()).isEqualTo("Qwen/Qwen3-8B");
    }

    @Test
    void aKeyUsesTheProvidersApiWithItsDefaultModel() {
        LlmEndpoint openai = LlmEndpoint.resolve(config(Map.of("conduit.llm.api-key", "sk-1")), LaunchMode.DEVELOPMENT, 8080);
        LlmEndpoint mistral = LlmEndpoint.resolve(config(Map.of("conduit.llm.provider", "mistral",
                "conduit.llm.api-key", "m-1")), LaunchMode.NORMAL, 8080);

        assertThat(openai.standIn()).isFalse();
        assertThat(openai.baseUrl()).isEqualTo("https://api.openai.com/v1");
        assertThat(openai.apiKey()).isEqualTo("sk-1");
        assertThat(mistral.provider()).isEqualTo(LlmProvider.MISTRAL);
        assertThat(mistral.baseUrl()).isEqualTo("https://api.mistral.ai/v1");
        assertThat(mistral.model()).isEqualTo("mistral-small-latest");
    }

    @Test
    void mistralHasNoSimulatorSoNoKeyFailsEvenInDev() {
        assertThatThrownBy(() -> LlmEndpoint.resolve(config(Map.of("conduit.llm.provider", "mistral")), LaunchMode.DEVELOPMENT, 8080))
                .hasMessageContaining("no API key set for provider mistral");
    }

    @Test
    void theSummarizerGetsItsOwnModelOnlyWhenOneIsSet() {
        LlmEndpoint plain = LlmEndpoint.resolve(config(Map.of("conduit.llm.api-key", "k", "conduit.llm.model", "big")),
                LaunchMode.NORMAL, 8080);
        LlmEndpoint split = LlmEndpoint.resolve(config(Map.of("conduit.llm.api-key", "k", "conduit.llm.model", "big",
                "conduit.llm.summarizer.model", "small")), LaunchMode.NORMAL, 8080);

        assertThat(plain.modelFor(ModelRole.SUMMARIZER)).isEqualTo("big");
        assertThat(split.modelFor(ModelRole.SUMMARIZER)).isEqualTo("small");
        assertThat(split.modelFor(ModelRole.PLANNER)).isEqualTo("big");
    }

    @Test
    void retriesTimeoutsTemperatureAndPricesAreRead() {
        LlmConfig config = config(Map.of(
                "conduit.llm.max-retries", "4",
                "conduit.llm.retry-backoff", "250ms",
                "conduit.llm.timeout", "90s",
                "conduit.llm.temperature", "0.7",
                "conduit.llm.prices.\"gpt-4.1-mini\".input-per-million", "0.40",
                "conduit.llm.prices.\"gpt-4.1-mini\".output-per-million", "1.60"));

        RetryPolicy retry = RetryPolicy.from(config);
        assertThat(retry.maxRetries()).isEqualTo(4);
        assertThat(retry.initialBackoff()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.temperature()).contains(0.7);
        assertThat(PriceTable.from(config).costUsd("gpt-4.1-mini", null, 1_000_000, 500_000)).isCloseTo(1.20, within(1e-9));
        assertThat(PriceTable.from(config).costUsd("unknown", "also-unknown", 1000, 1000)).isZero();
    }

    @Test
    void theDefaultsAreTwoRetriesAndNoTemperature() {
        LlmConfig config = config(Map.of());

        assertThat(config.provider()).isEqualTo(LlmProvider.OPENAI);
        assertThat(config.maxRetries()).isEqualTo(2);
        assertThat(config.temperature()).isEmpty();
    }
}
