package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Stops asked between replicas as PostgreSQL notifications: what one asks, every one hears, thread included. */
class PostgresRunStopsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static Vertx vertx;
    private static PgSubscriber subscriber;
    private static PostgresRunStops stops;
    private static final BlockingQueue<List<String>> heard = new LinkedBlockingQueue<>();

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        subscriber = TestDatabase.subscriber(vertx);
        stops = new PostgresRunStops(TestDatabase.pool(), subscriber);
        stops.onAsked((threadId, runId, reason, byRun) -> heard.add(Arrays.asList(threadId, runId, reason, byRun)));
        subscriber.connect().await().atMost(WAIT);
    }

    @AfterAll
    static void close() {
        subscriber.close().await().atMost(WAIT);
        vertx.closeAndAwait();
    }

    @Test
    void aStopIsHeardWithItsThreadReasonAndNewerRun() throws Exception {
        String run = "run-" + UUID.randomUUID();
        stops.ask("t1", run, "INTERRUPT", null).await().atMost(WAIT);
        assertThat(next(run)).containsExactly("t1", run, "INTERRUPT", null);
        stops.ask("t1", run, "ROLLBACK", "newer").await().atMost(WAIT);
        assertThat(next(run)).containsExactly("t1", run, "ROLLBACK", "newer");
    }

    /** A replica of the version before the thread was sent (a rolling deploy) asks with three lines. */
    @Test
    void aStopAskedWithoutItsThreadIsHeardWithNone() throws Exception {
        String run = "run-" + UUID.randomUUID();
        TestDatabase.pool().preparedQuery("SELECT pg_notify('" + PostgresRunStops.CHANNEL + "', $1)")
                .execute(Tuple.of(run + "\nINTERRUPT\n")).await().atMost(WAIT);
        assertThat(next(run)).containsExactly(null, run, "INTERRUPT", null);
    }

    /** The next stop heard of {@code run} (other tests' stops may come between). */
    private static List<String> next(String run) throws InterruptedException {
        while (true) {
            List<String> stop = heard.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(stop).as("a stop of " + run).isNotNull();
            if (run.equals(stop.get(1))) {
                return stop;
            }
        }
    }
}
