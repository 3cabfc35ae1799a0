package io.conduit.persistence;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when the checkpoint store answers: a service that cannot checkpoint must not take runs. */
@Readiness
@ApplicationScoped
public class CheckpointStoreHealthCheck implements AsyncHealthCheck {

    private final CheckpointStoreConfig config;
    private final Instance<Pool> pool;

    CheckpointStoreHealthCheck(CheckpointStoreConfig config, Instance<Pool> pool) {
        this.config = config;
        this.pool = pool;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        if (config.store() != CheckpointStoreConfig.Store.POSTGRES) {
            return Uni.createFrom().item(HealthCheckResponse.named("checkpoint-store").up().withData("store", "memory").build());
        }
        return pool.get().query("SELECT 1").execute()
                .ifNoItem().after(Duration.ofSeconds(3)).fail()
                .map(rows -> HealthCheckResponse.named("checkpoint-store").up().withData("store", "postgres").build())
                .onFailure().recoverWithItem(e -> HealthCheckResponse.named("checkpoint-store").down()
                        .withData("store", "postgres").withData("error", String.valueOf(e.getMessage())).build());
    }
}
