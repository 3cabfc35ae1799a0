package io.conduit.llm;

import io.conduit.agent.port.LanguageModel;
import io.quarkus.runtime.LaunchMode;
import io.vertx.core.Vertx;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * The service's one {@link LanguageModel}, from {@code conduit.llm.*}. Built at start-up so a missing key in prod
 * stops the service with a clear message instead of failing the first run.
 */
@ApplicationScoped
public class LanguageModelProducer {

    private static final Logger LOG = Logger.getLogger(LanguageModelProducer.class);

    @Produces
    @ApplicationScoped
    @Startup
    LanguageModel languageModel(LlmConfig config, Vertx vertx) {
        LaunchMode mode = LaunchMode.current();
        LlmEndpoint endpoint = LlmEndpoint.resolve(config, mode, ownHttpPort(mode));
        if (endpoint.simulator()) {
            LOG.warn(endpoint.simulatorWarning());
        } else {
            LOG.infof("LLM: %s, model %s at %s", endpoint.provider().id(), endpoint.model(), endpoint.baseUrl());
        }
        return new LangChain4jModel(ProviderModels.build(endpoint), endpoint, RetryPolicy.from(config),
                PriceTable.from(config), vertx);
    }

    private static int ownHttpPort(LaunchMode mode) {
        var config = ConfigProvider.getConfig();
        return mode == LaunchMode.TEST
                ? config.getOptionalValue("quarkus.http.test-port", Integer.class).orElse(8081)
                : config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080);
    }
}
