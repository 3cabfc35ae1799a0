package io.conduit.runs.delivery;

import io.conduit.runs.LimitsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The shared delivery's one piece of state: the open streams of this replica, for every transport. */
@ApplicationScoped
public class DeliveryBeans {

    @Produces
    @Singleton
    StreamPermits streamPermits(LimitsConfig limits) {
        return new StreamPermits(limits.maxStreams(), limits.retryAfter());
    }
}
