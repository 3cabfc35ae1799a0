package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.memory.InMemoryRunStore;
import io.vertx.core.Vertx;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stream waiting for a run that has not begun in this process's log: answered from the run's record when the run
 * ends without beginning here, once a replica that executed it can no longer be relaying its frames. Each look at the
 * record is counted, so that "not answered" is asserted after the watcher has looked twice more, not after a sleep.
 * (A run that begins here is followed instead: shown by the joins of {@code CrossReplicaStreamTest}.)
 */
class RunsEndedElsewhereTest {

    private static final Duration POLL = Duration.ofMillis(5);
    private static Vertx vertx;

    private final InMemoryRunStore store = new InMemoryRunStore();
    /** A permit per look at a run's record. */
    private final Semaphore looks = new Semaphore(0);
    private final RunStore runs = (RunStore) Proxy.newProxyInstance(RunStore.class.getClassLoader(), new Class<?>[] {RunStore.class},
            (proxy, method, args) -> {
                try {
                    return method.invoke(store, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                } finally {
                    if (method.getName().equals("get")) {
                        looks.release();
                    }
                }
            });
    private final ThreadLogs logs = ServiceLogs.of(Duration.ofMinutes(1), Duration.ofMinutes(1), 1 << 20, 1 << 24);
    private final String thread = "t-" + UUID.randomUUID();

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopVertx() {
        vertx.close();
    }

    private Run pending() {
        Instant now = Instant.now();
        Run run = new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, null, null, null, now, now, now, null);
        return store.create(run).await().indefinitely();
    }

    /** A run taken by {@code worker}, as its claim leaves it. */
    private Run running(String worker) {
        pending();
        return store.claim(worker, Instant.now(), 1).await().indefinitely().getFirst();
    }

    private void finish(Run run) {
        assertThat(store.finish(run.runId(), run.workerId(), RunStatus.SUCCESS, Instant.now()).await().indefinitely())
                .as("finished").isTrue();
    }

    private ThreadEventLog log() {
        return logs.log(RunEventLogs.NAME, thread);
    }

    /** Waits for the watcher's next two looks: the one in flight may have read the record before it changed. */
    private void twoMoreLooks() throws InterruptedException {
        looks.drainPermits();
        assertThat(looks.tryAcquire(2, 30, TimeUnit.SECONDS)).as("the watcher looks again").isTrue();
    }

    @Test
    void aRunThatEndsWithoutBeginningHereIsAnsweredFromItsRecord() throws Exception {
        Run pending = pending();
        ThreadEventLog log = log();
        ThreadEventLog.Subscription waiting = log.followRun(pending.runId(), -1, new Silent());
        CompletableFuture<Run> ended = new CompletableFuture<>();
        new RunsEndedElsewhere(runs, () -> true, POLL, Duration.ofHours(1), vertx).watch(pending, log, waiting, () -> false, ended::complete);

        twoMoreLooks();
        assertThat(ended).as("still pending: nothing to answer").isNotDone();
        store.cancelPending(pending.runId(), Instant.now()).await().indefinitely();

        // cancelled before any worker took it: no replica relays it, so no relay wait
        assertThat(ended.get(30, TimeUnit.SECONDS).status()).isEqualTo(RunStatus.INTERRUPTED);
    }

    @Test
    void aRunEndedOnAnotherReplicaIsAnsweredOnlyOnceItsFramesCannotComeAnyMore() throws Exception {
        Run running = running("other");
        finish(running);
        ThreadEventLog log = log();

        ThreadEventLog.Subscription first = log.followRun(running.runId(), -1, new Silent());
        CompletableFuture<Run> whileFramesMayCome = new CompletableFuture<>();
        AtomicBoolean gone = new AtomicBoolean();
        new RunsEndedElsewhere(runs, () -> true, POLL, Duration.ofHours(1), vertx)
                .watch(running, log, first, gone::get, whileFramesMayCome::complete);
        twoMoreLooks();
        assertThat(whileFramesMayCome).as("within relay-wait of its end: its frames may still come").isNotDone();
        gone.set(true); // its client left: the watcher stops looking

        ThreadEventLog.Subscription second = log.followRun(running.runId(), -1, new Silent());
        CompletableFuture<Run> ended = new CompletableFuture<>();
        new RunsEndedElsewhere(runs, () -> true, POLL, Duration.ZERO, vertx).watch(running, log, second, () -> false, ended::complete);
        assertThat(ended.get(30, TimeUnit.SECONDS).status()).isEqualTo(RunStatus.SUCCESS);
    }

    /** A subscriber that ignores what it gets: these tests look at the watcher's answer only. */
    private static final class Silent implements RunEventListener {
        @Override
        public void onEvent(RunEvent event) {
        }

        @Override
        public void onEnd() {
        }
    }
}
