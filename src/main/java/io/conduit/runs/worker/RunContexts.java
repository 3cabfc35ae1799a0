package io.conduit.runs.worker;

import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Vert.x contexts runs execute on: one per event loop, belonging to no deployment. A run starts on the event loop
 * of the request that created it, but not on that request's context, which belongs to the HTTP server's deployment:
 * when a replica shuts down, Quarkus undeploys that server before the drain is over (at once when no request is open),
 * and Vert.x then cancels every timer set from its contexts, so a run set there would stall mid-step (a model's
 * pacing, a linger) instead of reaching the step boundary where the drain hands it back. Same thread, so the run and
 * its clients on that loop still meet without a hop.
 */
final class RunContexts {

    private static final Map<EventLoop, Context> BY_LOOP = new ConcurrentHashMap<>();

    private RunContexts() {
    }

    /** {@code here} if it belongs to no deployment, else the run context of its event loop. */
    static Context on(Context here) {
        if (!(here instanceof ContextInternal internal) || !internal.isDeployment()) {
            return here;
        }
        return BY_LOOP.computeIfAbsent(internal.nettyEventLoop(), loop ->
                ((VertxInternal) internal.owner()).createEventLoopContext(loop, internal.workerPool(), internal.classLoader()));
    }
}
