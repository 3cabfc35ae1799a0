package io.conduit.llm;

import io.conduit.agent.port.LanguageModel;
import io.conduit.llm.simulator.SimulatedLanguageModel;
import io.conduit.llm.simulator.SimulatorConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * The service's one {@link LanguageModel}, from {@code conduit.llm.*}: a provider over LangChain4j, or the simulated
 * model in-process ({@link LlmEndpoint#inProcess()}). Built at start-up so a missing key in prod, or a broken
 * simulator script, stops the service with a clear message instead of failing the first run.
 */
@ApplicationScoped
public class LanguageModelProducer {

    private static final Logger LOG = Logger.getLogger(LanguageModelProducer.class);

    @Produces
    @ApplicationScoped
    @Startup
    LanguageModel languageModel(LlmConfig config, SimulatorConfig simulator, Vertx vertx, MeterRegistry registry) {
        LlmEndpoint endpoint = LlmEndpoint.resolve(config, LaunchMode.current(), ownHttpPort(LaunchMode.current()));
        return new MeteredLanguageModel(model(config, simulator, vertx, endpoint), registry, endpoint.model());
    }

    private static LanguageModel model(LlmConfig config, SimulatorConfig simulator, Vertx vertx, LlmEndpoint endpoint) {
        if (endpoint.standIn()) {
            LOG.warn(endpoint.standInWarning());
        }
        PriceTable prices = PriceTable.from(config);
        if (endpoint.inProcess()) {
            if (!endpoint.standIn()) {
                LOG.infof("LLM: the simulated model in-process, model name %s", endpoint.model());
            }
            LOG.infof("Simulated model: %s", SimulatedLanguageModel.describe(simulator));
            return SimulatedLanguageModel.create(simulator, vertx, endpoint.model(), endpoint.summarizerModel(),
                    (model, in, out) -> prices.costUsd(model, null, in, out));
        }
        if (!endpoint.standIn()) {
            LOG.infof("LLM: %s, model %s at %s", endpoint.provider().id(), endpoint.model(), endpoint.baseUrl());
        }
        return new LangChain4jModel(ProviderModels.build(endpoint), endpoint, RetryPolicy.from(config), prices, vertx,
                config.acceptsImages());
    }

    private static int ownHttpPort(LaunchMode mode) {
        var config = ConfigProvider.getConfig();
        return mode == LaunchMode.TEST
                ? config.getOptionalValue("quarkus.http.test-port", Integer.class).orElse(8081)
                : config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
    }
}
