package io.conduit.stream;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Everyone may see every thread unless the application provides its own {@link ThreadAccess}. */
@ApplicationScoped
class ThreadAccessDefault {

    @Produces
    @DefaultBean
    @ApplicationScoped
    ThreadAccess allowAll() {
        return (threadId, headers) -> io.smallrye.mutiny.Uni.createFrom().item(Boolean.TRUE);
    }
}
