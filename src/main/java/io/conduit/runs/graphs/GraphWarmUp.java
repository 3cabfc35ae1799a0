package io.conduit.runs.graphs;

import io.quarkus.vertx.http.HttpServerStart;
import io.quarkus.vertx.http.HttpsServerStart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Builds every registered graph once the HTTP server is up, off the start's main thread and off the event loops, so
 * that neither the start nor the first run of a graph pays for it (a run that comes first builds it itself; see
 * {@link RegisteredGraph#graph()}).
 */
@ApplicationScoped
public class GraphWarmUp {

    private static final Logger LOG = Logger.getLogger(GraphWarmUp.class);

    private final AtomicBoolean warmed = new AtomicBoolean();

    void serverStarted(@ObservesAsync HttpServerStart started, GraphRegistry graphs) {
        warm(graphs);
    }

    void tlsServerStarted(@ObservesAsync HttpsServerStart started, GraphRegistry graphs) {
        warm(graphs); // a TLS-only deployment fires no HttpServerStart
    }

    private void warm(GraphRegistry graphs) {
        if (!warmed.compareAndSet(false, true)) {
            return;
        }
        // async observers run on a worker thread: building here blocks no event loop
        for (RegisteredGraph g : graphs.all()) {
            try {
                g.graph();
            } catch (RuntimeException e) {
                // the run that needs it builds it again and reports the failure to its client
                LOG.errorf(e, "building graph %s failed", g.graphId());
            }
        }
    }
}
