package io.conduit.runs.submission;

import io.conduit.auth.Principal;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.LimitsConfig;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether a new run is accepted, under this replica's limits ({@link LimitsConfig}): the runs it holds (running, or
 * accepted and waiting: past {@code conduit.runs.max-concurrent} a run waits pending, and without this bound the
 * wait would grow without end), and the runs queued on one thread. Refusals are {@link LimitExceededException}s
 * (HTTP 429 with {@code Retry-After}).
 *
 * <p>An admission is a reservation ({@link Ticket}), counted from the check until the run is counted where the limit
 * reads it (its log segment open, its record stored as pending), so requests arriving together cannot pass a limit
 * between the check and the write. Across replicas the queued-runs count is still read from the store.
 */
public final class RunAdmission {

    public static final String TOO_MANY_RUNS = "too_many_runs";
    public static final String TOO_MANY_QUEUED_RUNS = "too_many_queued_runs";

    private final ThreadLogs logs;
    private final RunStore runs;
    private final int maxActiveRuns;
    private final int maxQueuedPerThread;
    private final Duration retryAfter;
    private final PrincipalAdmission principals;
    /** Admitted runs whose log segment is not open yet. */
    private final AtomicInteger admitting = new AtomicInteger();
    /** Per thread, admitted enqueued runs whose record is not stored yet. */
    private final ConcurrentHashMap<String, Integer> queueing = new ConcurrentHashMap<>();

    public RunAdmission(ThreadLogs logs, RunStore runs, int maxActiveRuns, int maxQueuedPerThread, Duration retryAfter,
                        PrincipalAdmission principals) {
        this.principals = principals;
        this.logs = logs;
        this.runs = runs;
        this.maxActiveRuns = maxActiveRuns;
        this.maxQueuedPerThread = maxQueuedPerThread;
        this.retryAfter = retryAfter;
    }

    /**
     * A run's reservation: {@link #segmentOpened()} and {@link #stored()} hand it over to the counts the limits read;
     * {@link #release()} gives back whatever it still holds (call it when the submission ends, however it ends).
     */
    public final class Ticket {
        private final String queuedOn;
        private final AtomicBoolean run = new AtomicBoolean(true);
        private final AtomicBoolean queued;
        /** The run's place among its caller's ({@link PrincipalAdmission}), given back once its record is stored. */
        private volatile PrincipalAdmission.Reservation principal;

        private Ticket(String queuedOn) {
            this.queuedOn = queuedOn;
            this.queued = new AtomicBoolean(queuedOn != null);
        }

        public void segmentOpened() {
            if (run.compareAndSet(true, false)) {
                admitting.decrementAndGet();
            }
        }

        public void stored() {
            if (queued.compareAndSet(true, false)) {
                queueing.computeIfPresent(queuedOn, (k, n) -> n == 1 ? null : n - 1); // in the map's lock, as the add
            }
            PrincipalAdmission.Reservation p = principal;
            if (p != null) {
                p.release(); // stored: the store counts it now
            }
        }

        private Ticket heldFor(PrincipalAdmission.Reservation reservation) {
            this.principal = reservation;
            return this;
        }

        public void release() {
            segmentOpened();
            stored();
        }
    }

    /**
     * A reservation for a run of {@code caller} with {@code strategy} on {@code threadId} (null: a stateless run), or a
     * 429: the caller's own limits first ({@link PrincipalAdmission}), then this replica's.
     */
    public Uni<Ticket> admit(String threadId, MultitaskStrategy strategy, Principal caller) {
        return principals.admit(caller).chain(reservation -> admit(threadId, strategy)
                .map(ticket -> ticket.heldFor(reservation))
                .onFailure().invoke(reservation::release).onCancellation().invoke(reservation::release));
    }

    private Uni<Ticket> admit(String threadId, MultitaskStrategy strategy) {
        return Uni.createFrom().deferred(() -> {
            if (!reserveRun()) {
                return Uni.createFrom().failure(new LimitExceededException(TOO_MANY_RUNS, "this replica holds " + maxActiveRuns
                        + " runs, its limit (conduit.limits.max-active-runs); retry later", retryAfter));
            }
            // reject refuses a busy thread itself; interrupt and rollback stop the runs in flight: only enqueue queues
            if (threadId == null || strategy != MultitaskStrategy.ENQUEUE) {
                return Uni.createFrom().item(new Ticket(null));
            }
            int before = queueing.merge(threadId, 1, Integer::sum) - 1;
            Ticket ticket = new Ticket(threadId);
            return runs.inflight(threadId).map(inflight -> {
                long waiting = inflight.stream().filter(r -> r.status() == RunStatus.PENDING).count() + before;
                if (waiting >= maxQueuedPerThread) {
                    throw new LimitExceededException(TOO_MANY_QUEUED_RUNS, "thread " + threadId + " has " + waiting
                            + " runs waiting, its limit (conduit.limits.max-queued-runs-per-thread); retry later", retryAfter);
                }
                return ticket;
            }).onFailure().invoke(ticket::release).onCancellation().invoke(ticket::release); // a client gone meanwhile
        });
    }

    private boolean reserveRun() {
        while (true) {
            int reserved = admitting.get();
            if (logs.openRuns() + reserved >= maxActiveRuns) {
                return false;
            }
            if (admitting.compareAndSet(reserved, reserved + 1)) {
                return true;
            }
        }
    }
}
