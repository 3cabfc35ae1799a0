package io.conduit.persistence;

import io.conduit.runs.AssistantStore;
import io.conduit.runs.InMemoryAssistantStore;
import io.conduit.runs.InMemoryRunStore;
import io.conduit.runs.InMemoryThreadStore;
import io.conduit.runs.RunStore;
import io.conduit.runs.ThreadStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Run, thread and assistant records (in memory until the Postgres stores land). */
@ApplicationScoped
public class RunStoresProducer {

    @Produces
    @Singleton
    RunStore runs() {
        return new InMemoryRunStore();
    }

    @Produces
    @Singleton
    ThreadStore threads() {
        return new InMemoryThreadStore();
    }

    @Produces
    @Singleton
    AssistantStore assistants() {
        return new InMemoryAssistantStore();
    }
}
