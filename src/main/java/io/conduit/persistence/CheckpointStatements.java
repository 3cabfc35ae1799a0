package io.conduit.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.function.IntFunction;

/** The client the checkpointer's statements run on, each repeated a few times when the connection is lost. */
final class CheckpointStatements {

    private final SqlClient client;
    private final ConnectionRetry retry;

    /** @param client a pool, or a pipelining client over one: every call here is a single statement */
    CheckpointStatements(SqlClient client, ConnectionRetry retry) {
        this.client = client;
        this.retry = retry;
    }

    /** One statement, repeated on a lost connection: every statement but put's is safe to repeat as it is. */
    Uni<RowSet<Row>> execute(String what, String sql, Tuple args) {
        return retry.run(what, attempt -> client.preparedQuery(sql).execute(args));
    }

    /** A statement whose repeat must check what an earlier attempt did: given the attempt number, from 1. */
    <T> Uni<T> retried(String what, IntFunction<Uni<T>> statement) {
        return retry.run(what, statement);
    }

    /** {@link #retried}, its first attempt made elsewhere and lost with its connection ({@code failure}). */
    <T> Uni<T> retriedAfter(String what, Throwable failure, IntFunction<Uni<T>> statement) {
        return retry.runAfter(what, failure, statement);
    }

    /** One statement, once: inside {@link #retried}, which repeats it. */
    Uni<RowSet<Row>> once(String sql, Tuple args) {
        return client.preparedQuery(sql).execute(args);
    }
}
