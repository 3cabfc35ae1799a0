package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * What the store does when a connection is lost around a statement: which failures count as a lost connection, and
 * a put whose connection was lost after it committed (its repeat must not read as a conflict). The connection loss
 * is staged by a client that executes a statement and then reports it lost, or reports it lost without executing it.
 */
class ConnectionRetryTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ConnectionRetry QUICK = new ConnectionRetry(5, Duration.ofMillis(1), Duration.ofMillis(5));

    @Test
    void lostConnectionsAreTellableFromFailedStatements() {
        assertThat(ConnectionRetry.lostConnection(ClosedConnectionException.INSTANCE)).isTrue();
        assertThat(ConnectionRetry.lostConnection(new ConnectException("Connection refused"))).isTrue();
        assertThat(ConnectionRetry.lostConnection(new RuntimeException(new java.io.IOException("Connection reset")))).isTrue();
        assertThat(ConnectionRetry.lostConnection(new PgException("terminating connection due to administrator command", "FATAL", "57P01", null))).isTrue();
        assertThat(ConnectionRetry.lostConnection(new io.vertx.core.impl.NoStackTraceThrowable("Connection is not active now, current status: CLOSED"))).isTrue();
        assertThat(ConnectionRetry.lostConnection(new io.vertx.core.impl.NoStackTraceThrowable("something else"))).isFalse();
        assertThat(ConnectionRetry.lostConnection(new PgException("the database system is starting up", "FATAL", "57P03", null))).isTrue();
        assertThat(ConnectionRetry.lostConnection(new PgException("connection failure", "FATAL", "08006", null))).isTrue();

        assertThat(ConnectionRetry.lostConnection(new PgException("duplicate key", "ERROR", "23505", null))).isFalse();
        assertThat(ConnectionRetry.lostConnection(new PgException("syntax error", "ERROR", "42601", null))).isFalse();
        assertThat(ConnectionRetry.lostConnection(new CheckpointConflictException("t", "", null))).isFalse();
        assertThat(ConnectionRetry.lostConnection(new IllegalStateException("no"))).isFalse();
    }

    @Test
    void retriesAreBoundedAndTheLastFailureStands() {
        AtomicInteger calls = new AtomicInteger();
        Uni<Object> failing = QUICK.run("test", n -> {
            calls.incrementAndGet();
            return Uni.createFrom().failure(ClosedConnectionException.INSTANCE);
        });
        assertThatThrownBy(() -> failing.await().atMost(TIMEOUT)).isSameAs(ClosedConnectionException.INSTANCE);
        assertThat(calls).hasValue(5);

        calls.set(0);
        Uni<Object> wrong = QUICK.run("test", n -> {
            calls.incrementAndGet();
            return Uni.createFrom().failure(new IllegalStateException("a statement error"));
        });
        assertThatThrownBy(() -> wrong.await().atMost(TIMEOUT)).isInstanceOf(IllegalStateException.class);
        assertThat(calls).as("a failed statement is not repeated").hasValue(1);
    }

    @Test
    void aPutWhoseConnectionWasLostAfterItCommittedSucceedsOnItsRepeat() {
        LosingClient losing = new LosingClient(sql -> sql.contains("INSERT INTO conduit_checkpoints"), true);
        PostgresCheckpointer store = new PostgresCheckpointer(losing.client(), QUICK);
        PostgresCheckpointer plain = TestDatabase.checkpointer();
        String thread = "retry-" + UUID.randomUUID();
        Checkpoint first = cp(thread, null);
        Checkpoint second = cp(thread, first);

        await(store.put(first, null));
        await(store.put(second, first.id()));

        assertThat(losing.lost).as("responses lost").hasValue(2);
        assertThat(await(plain.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(second.id());
        assertThat(await(plain.list(thread, "", 10, null))).hasSize(2);
    }

    @Test
    void aRepeatedPutStillConflictsWhenAnotherWriterMovedTheHead() {
        PostgresCheckpointer plain = TestDatabase.checkpointer();
        String thread = "retry-" + UUID.randomUUID();
        Checkpoint first = cp(thread, null);
        await(plain.put(first, null));
        Checkpoint winner = cp(thread, first);
        Checkpoint loser = cp(thread, first);
        // the loser's first attempt never reaches the server; before its repeat, the winner moves the head
        LosingClient losing = new LosingClient(sql -> sql.contains("INSERT INTO conduit_checkpoints"), false);
        losing.beforeRepeat = () -> await(plain.put(winner, first.id()));
        PostgresCheckpointer store = new PostgresCheckpointer(losing.client(), QUICK);

        assertThatThrownBy(() -> await(store.put(loser, first.id()))).isInstanceOf(CheckpointConflictException.class);

        assertThat(await(plain.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(winner.id());
        assertThat(await(plain.get(thread, "", loser.id()))).isEmpty();
    }

    private static Checkpoint cp(String thread, Checkpoint parent) {
        String id = TimeOrderedIds.next();
        return new Checkpoint(thread, "", id, parent == null ? null : parent.id(), parent == null ? -1 : parent.step() + 1,
                parent == null ? CheckpointSource.INPUT : CheckpointSource.LOOP, null, Map.of(), Map.of(), List.of(TaskSpec.of("a")), Map.of(),
                TimeOrderedIds.millisOf(id), 1);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    /**
     * The test pool, but the first execution of each matching statement reports a lost connection: after it ran
     * ({@code afterCommit}), or instead of running. Proxies the core client interfaces the Mutiny client wraps.
     */
    private static final class LosingClient {
        final Predicate<String> matches;
        final boolean afterCommit;
        final AtomicInteger lost = new AtomicInteger();
        Runnable beforeRepeat = () -> { };
        private boolean failNext = true;

        LosingClient(Predicate<String> matches, boolean afterCommit) {
            this.matches = matches;
            this.afterCommit = afterCommit;
        }

        io.vertx.mutiny.sqlclient.SqlClient client() {
            io.vertx.sqlclient.SqlClient real = TestDatabase.pool().getDelegate();
            return io.vertx.mutiny.sqlclient.SqlClient.newInstance(proxy(io.vertx.sqlclient.SqlClient.class, real, (m, args) -> {
                Object result = m.invoke(real, args);
                if (m.getName().equals("preparedQuery") && matches.test((String) args[0])) {
                    return query((io.vertx.sqlclient.PreparedQuery<?>) result);
                }
                return result;
            }));
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private Object query(io.vertx.sqlclient.PreparedQuery<?> real) {
            return proxy(io.vertx.sqlclient.PreparedQuery.class, real, (m, args) -> {
                if (!m.getName().equals("execute")) {
                    return m.invoke(real, args);
                }
                boolean fail;
                synchronized (this) {
                    fail = failNext;
                    failNext = !failNext; // every other execution: the first of a statement, not its repeat
                }
                if (!fail) {
                    beforeRepeat.run();
                    return m.invoke(real, args);
                }
                lost.incrementAndGet();
                Object last = args[args.length - 1];
                if (last instanceof Handler handler) {
                    if (!afterCommit) {
                        handler.handle(Future.failedFuture(ClosedConnectionException.INSTANCE));
                        return null;
                    }
                    Object[] wrapped = args.clone();
                    wrapped[args.length - 1] = (Handler<AsyncResult<?>>) ar -> handler.handle(Future.failedFuture(ClosedConnectionException.INSTANCE));
                    return m.invoke(real, wrapped);
                }
                if (!afterCommit) {
                    return Future.failedFuture(ClosedConnectionException.INSTANCE);
                }
                return ((Future<?>) m.invoke(real, args)).transform(ar -> Future.failedFuture(ClosedConnectionException.INSTANCE));
            });
        }

        interface Call {
            Object apply(Method m, Object[] args) throws Exception;
        }

        @SuppressWarnings("unchecked")
        private static <T> T proxy(Class<T> type, Object real, Call call) {
            InvocationHandler h = (p, m, args) -> {
                try {
                    return call.apply(m, args == null ? new Object[0] : args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, h);
        }
    }
}
