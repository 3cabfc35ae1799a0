package io.conduit.runs.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.ManualClock;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.Worker;
import io.conduit.runs.memory.InMemoryRunStore;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recovery after the database restarted: while it was down no replica could renew its hold, so for a lease after it
 * is back a run last renewed before the outage may still have a live holder, and is not taken from it.
 */
class WorkerLeaseTest {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Instant T0 = Instant.parse("2026-11-27T04:00:00Z");

    private final InMemoryRunStore store = new InMemoryRunStore();
    private boolean down;
    private final ManualClock clock = new ManualClock(T0);
    private final Worker self = Worker.boot("replica-b");
    private final WorkerLease me = new WorkerLease(failingWhileDown(), self, clock, LEASE, new HeldRuns(), () -> { }, lost -> { });

    @Test
    void aRunOfALiveReplicaIsNotTakenWhenTheStoreComesBackAfterMoreThanALease() {
        Run run = runningElsewhere("replica-a/1");
        renewAt(0);
        down = true;
        renewAt(1_000);
        renewAt(2_000);
        down = false;
        renewAt(6_000); // back: the other replica has not had its turn to renew yet
        assertThat(recoverAt(6_000)).isEmpty();
        store.renew("replica-a/1", List.of(run.runId()), at(6_500)).await().indefinitely();
        assertThat(recoverAt(9_500)).isEmpty();
        assertThat(store.get(run.runId()).await().indefinitely().orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void aRunWhoseHolderDoesNotRenewAfterTheOutageIsTakenALeaseLater() {
        Run run = runningElsewhere("replica-a/1");
        renewAt(0);
        down = true;
        renewAt(1_000);
        down = false;
        renewAt(6_000);
        assertThat(recoverAt(8_900)).isEmpty();
        assertThat(recoverAt(9_100)).extracting(Run::runId).containsExactly(run.runId());
    }

    @Test
    void aRunAlreadyStaleWhenTheOutageBeganIsTakenAtOnce() {
        Run run = runningElsewhere("replica-a/1");
        renewAt(4_000);
        down = true;
        renewAt(5_000);
        down = false;
        renewAt(9_000);
        assertThat(recoverAt(9_000)).extracting(Run::runId).containsExactly(run.runId());
    }

    @Test
    void withoutAnOutageARunIsTakenOnceItsLeaseLapsed() {
        Run run = runningElsewhere("replica-a/1");
        renewAt(1_000);
        assertThat(recoverAt(2_900)).isEmpty();
        assertThat(recoverAt(3_100)).extracting(Run::runId).containsExactly(run.runId());
    }

    private Run runningElsewhere(String worker) {
        Run run = new Run("run-1", "thread-1", "agent", RunStatus.PENDING, null, MultitaskStrategy.ENQUEUE, null, T0, T0, T0, null);
        store.create(run).await().indefinitely();
        return store.claimNext(worker, T0).await().indefinitely().orElseThrow();
    }

    @Test
    void theFenceTrustsAFreshHoldAsksTheStoreAboutAnOldOneAndRefusesOnlyWhatTheStoreGaveAnother() {
        HeldRun held = new HeldRun(runningElsewhere(self.id()), null); // claimed at T0

        down = true;
        clock.set(at(1_000));
        assertThat(admitted(held)).as("renewed within half a lease: not asked").isTrue();
        clock.set(at(2_000));
        assertThat(admitted(held)).as("an old hold the store does not answer for: the write decides").isTrue();
        down = false;
        assertThat(admitted(held)).as("the store still gives it to this worker").isTrue();

        clock.set(at(10_000)); // paused past the lease: another worker took the run
        store.requeueOrphans(Worker.boot("other"), List.of(), at(10_000).minus(LEASE), at(10_000)).await().indefinitely();
        store.claimNext(Worker.boot("other").id(), at(10_000)).await().indefinitely().orElseThrow();
        assertThat(admitted(held)).as("taken over: refused").isFalse();
    }

    private boolean admitted(HeldRun a) {
        return me.admit(a).map(v -> true).onFailure().recoverWithItem(false).await().indefinitely();
    }

    private void renewAt(long millis) {
        clock.set(at(millis));
        me.renew().onFailure().recoverWithItem(0).await().indefinitely();
    }

    private List<Run> recoverAt(long millis) {
        clock.set(at(millis));
        return me.recover().await().indefinitely();
    }

    private static Instant at(long millis) {
        return T0.plusMillis(millis);
    }

    /** The store, whose renewals are refused as by a database that is down while {@link #down}. */
    private RunStore failingWhileDown() {
        return (RunStore) Proxy.newProxyInstance(RunStore.class.getClassLoader(), new Class<?>[]{RunStore.class}, (proxy, method, args) -> {
            if (down && method.getName().equals("renew")) {
                return Uni.createFrom().failure(new ConnectException("Connection refused"));
            }
            try {
                return method.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
