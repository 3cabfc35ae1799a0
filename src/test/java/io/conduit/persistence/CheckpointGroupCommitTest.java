package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Group commit ({@link CheckpointGroupCommit}) against the test database: the puts of a test are made in one turn
 * of an event loop, so that they go as one group ({@link CheckpointSql#PUT_MANY}). Each put must get the answer it
 * would get alone.
 */
class CheckpointGroupCommitTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ConnectionRetry QUICK = new ConnectionRetry(5, Duration.ofMillis(1), Duration.ofMillis(5));
    /** Where the puts are made, as the engine makes them: on an event loop. */
    private static final Vertx VERTX = Vertx.vertx();

    @AfterAll
    static void close() {
        VERTX.close();
    }

    @Test
    void aGroupGivesEachPutItsOwnOutcome() {
        Fixture f = new Fixture(new GroupsClient(false), 16, 5);

        List<Throwable> outcomes = f.run();

        assertThat(f.client.groups).as("puts per group statement").containsExactly(16);
        for (int i = 0; i < f.puts.size(); i++) {
            if (i == 5) {
                assertThat(outcomes.get(i)).isInstanceOf(CheckpointConflictException.class);
                f.assertNotStored(i);
            } else {
                assertThat(outcomes.get(i)).as("put %d", i).isNull();
                f.assertStored(i);
            }
        }
    }

    @Test
    void aPutThatFailsItsGroupFailsAloneAndTheOthersAreStored() {
        Fixture f = new Fixture(new GroupsClient(false), 12, -1);
        Checkpoint parent = f.parents.get(3);
        // its id is its parent's: the row cannot be inserted (a duplicate key), and the group's statement fails with it
        f.puts.set(3, new Checkpoint(parent.threadId(), "", parent.id(), parent.id(), 0, CheckpointSource.LOOP, null, Map.of(),
                Map.of(), List.of(), Map.of(), parent.createdAtMillis(), 2));

        List<Throwable> outcomes = f.run();

        assertThat(f.client.groups).containsExactly(12);
        for (int i = 0; i < f.puts.size(); i++) {
            if (i == 3) {
                assertThat(outcomes.get(i)).isInstanceOf(PgException.class);
                assertThat(((PgException) outcomes.get(i)).getSqlState()).isEqualTo("23505");
                assertThat(f.head(i)).isEqualTo(parent.id());
            } else {
                assertThat(outcomes.get(i)).as("put %d", i).isNull();
                f.assertStored(i);
            }
        }
    }

    @Test
    void aGroupWhoseAnswerWasLostAfterItCommittedIsStoredAndItsConflictStillConflicts() {
        Fixture f = new Fixture(new GroupsClient(true), 10, 7);

        List<Throwable> outcomes = f.run();

        assertThat(f.client.groups).containsExactly(10);
        for (int i = 0; i < f.puts.size(); i++) {
            if (i == 7) {
                assertThat(outcomes.get(i)).isInstanceOf(CheckpointConflictException.class);
                f.assertNotStored(i);
            } else {
                assertThat(outcomes.get(i)).as("put %d", i).isNull();
                f.assertStored(i);
            }
        }
    }

    @Test
    void twoPutsOfOneThreadNeverShareAGroup() {
        Fixture f = new Fixture(new GroupsClient(false), 6, -1);
        Checkpoint first = f.puts.get(2);
        Checkpoint second = cp(first.threadId(), first);
        f.puts.add(second);
        f.expected.add(first.id());

        List<Throwable> outcomes = f.run();

        assertThat(outcomes).containsOnlyNulls();
        assertThat(f.client.groups).as("the second goes alone, after the group").containsExactly(6);
        assertThat(f.head(6)).isEqualTo(second.id());
    }

    /**
     * Threads with a head each ({@code parents}) and a put on each ({@code puts}, expecting the parent); the put at
     * {@code conflicting} expects a head its thread does not have.
     */
    private static final class Fixture {
        final GroupsClient client;
        final PostgresCheckpointer store;
        final PostgresCheckpointer plain = TestDatabase.checkpointer();
        final List<Checkpoint> parents = new ArrayList<>();
        final List<Checkpoint> puts = new ArrayList<>();
        final List<String> expected = new ArrayList<>();

        Fixture(GroupsClient client, int n, int conflicting) {
            this.client = client;
            this.store = new PostgresCheckpointer(client.client(), QUICK);
            for (int i = 0; i < n; i++) {
                Checkpoint parent = cp("group-" + UUID.randomUUID(), null);
                await(plain.put(parent, null));
                parents.add(parent);
                puts.add(cp(parent.threadId(), parent));
                expected.add(i == conflicting ? TimeOrderedIds.next() : parent.id());
            }
        }

        /** All of {@code puts}, made in one event-loop turn: they queue until its end, and then go as groups. */
        List<Throwable> run() {
            List<CompletableFuture<Void>> made = new ArrayList<>();
            CompletableFuture<Void> turn = new CompletableFuture<>();
            VERTX.getOrCreateContext().runOnContext(v -> {
                for (int i = 0; i < puts.size(); i++) {
                    made.add(store.put(puts.get(i), expected.get(i)).subscribeAsCompletionStage());
                }
                turn.complete(null);
            });
            turn.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
            List<Throwable> outcomes = new ArrayList<>();
            for (CompletableFuture<Void> put : made) {
                outcomes.add(put.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).handle((v, t) -> t == null ? null : unwrap(t)).join());
            }
            return outcomes;
        }

        String head(int i) {
            return await(plain.head(puts.get(i).threadId(), "")).orElseThrow().checkpoint().id();
        }

        void assertStored(int i) {
            assertThat(head(i)).isEqualTo(puts.get(i).id());
            Checkpoint read = await(plain.get(puts.get(i).threadId(), "", puts.get(i).id())).orElseThrow().checkpoint();
            assertThat(read.parentId()).isEqualTo(puts.get(i).parentId());
            assertThat(read.values().get("n").json()).isEqualTo(puts.get(i).values().get("n").json());
        }

        void assertNotStored(int i) {
            assertThat(head(i)).isEqualTo(parents.get(i).id());
            assertThat(await(plain.get(puts.get(i).threadId(), "", puts.get(i).id()))).isEmpty();
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private static Checkpoint cp(String thread, Checkpoint parent) {
        String id = TimeOrderedIds.next();
        int step = parent == null ? -1 : parent.step() + 1;
        return new Checkpoint(thread, "", id, parent == null ? null : parent.id(), step,
                parent == null ? CheckpointSource.INPUT : CheckpointSource.LOOP, null, Map.of("n", Stored.json(Integer.toString(step))),
                Map.of(), List.of(TaskSpec.of("a")), Map.of(), TimeOrderedIds.millisOf(id), parent == null ? 1 : parent.chainLength() + 1);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    /**
     * The test pool, noting the size of each group statement; with {@code loseGroups} it reports each group lost
     * after it ran (the connection dropped before its answer came).
     */
    private static final class GroupsClient {
        final List<Integer> groups = Collections.synchronizedList(new ArrayList<>());
        private final boolean loseGroups;

        GroupsClient(boolean loseGroups) {
            this.loseGroups = loseGroups;
        }

        io.vertx.mutiny.sqlclient.SqlClient client() {
            io.vertx.sqlclient.SqlClient real = TestDatabase.pool().getDelegate();
            return io.vertx.mutiny.sqlclient.SqlClient.newInstance(proxy(io.vertx.sqlclient.SqlClient.class, real, (m, args) -> {
                Object result = m.invoke(real, args);
                return m.getName().equals("preparedQuery") && CheckpointSql.PUT_MANY.equals(args[0])
                        ? group((io.vertx.sqlclient.PreparedQuery<?>) result) : result;
            }));
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private Object group(io.vertx.sqlclient.PreparedQuery<?> real) {
            return proxy(io.vertx.sqlclient.PreparedQuery.class, real, (m, args) -> {
                if (!m.getName().equals("execute") || !(args[args.length - 1] instanceof Handler handler)) {
                    return m.invoke(real, args);
                }
                groups.add(((Object[]) ((io.vertx.sqlclient.Tuple) args[0]).getValue(0)).length);
                if (!loseGroups) {
                    return m.invoke(real, args);
                }
                Object[] wrapped = args.clone();
                wrapped[args.length - 1] = (Handler<AsyncResult<?>>) ar -> handler.handle(Future.failedFuture(ClosedConnectionException.INSTANCE));
                return m.invoke(real, wrapped);
            });
        }

        interface Call {
            Object apply(java.lang.reflect.Method m, Object[] args) throws Exception;
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
