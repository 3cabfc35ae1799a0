package io.conduit.runs.worker;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the run worker can write: its hold on its runs is renewed (a write to the run store, so a store that
 * answers reads but refuses writes is caught too), and it owes the store no run's end. A replica that cannot record
 * what its runs do must not be sent more of them. Nor must one that drains (it shuts down).
 */
@Readiness
@ApplicationScoped
public class WorkerHealthCheck implements AsyncHealthCheck {

    private static final Duration WRITE_WAIT = Duration.ofSeconds(3);

    private final RunExecutor executor;

    WorkerHealthCheck(RunExecutor executor) {
        this.executor = executor;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        if (executor.draining()) { // shutting down: its runs are handed back, it must be sent nothing new
            return Uni.createFrom().item(HealthCheckResponse.named("run-worker").down().withData("draining", true).build());
        }
        int owed = executor.unrecordedEnds();
        if (owed > 0) {
            return Uni.createFrom().item(HealthCheckResponse.named("run-worker").down()
                    .withData("unrecorded_run_ends", owed).withData("error", "the run store refuses writes").build());
        }
        return executor.renew().ifNoItem().after(WRITE_WAIT).fail()
                .map(held -> HealthCheckResponse.named("run-worker").up().withData("worker", executor.workerId()).withData("held_runs", held).build())
                .onFailure().recoverWithItem(e -> HealthCheckResponse.named("run-worker").down()
                        .withData("error", "the run store refuses writes: " + e).build());
    }
}
