package io.conduit.persistence;

import static io.conduit.persistence.SqlValues.instant;
import static io.conduit.persistence.SqlValues.json;
import static io.conduit.persistence.SqlValues.jsonOrNull;
import static io.conduit.persistence.SqlValues.map;
import static io.conduit.persistence.SqlValues.time;

import io.conduit.runs.Assistant;
import io.conduit.runs.AssistantExistsException;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.InputText;
import io.conduit.runs.SortOrder;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Assistants in PostgreSQL (V3): every version a row of {@code conduit_assistant_versions}, and a row of
 * {@code conduit_assistants} naming the latest. That row is also what concurrent updates of one assistant lock,
 * so each gets a version number of its own.
 */
public final class PostgresAssistantStore implements AssistantStore {

    private static final String COLUMNS = "v.assistant_id, v.version, v.graph_id, v.name, v.description, v.config::text AS config, "
            + "v.context::text AS context, v.metadata::text AS metadata, v.created_at, v.updated_at";
    private static final String LATEST = " FROM conduit_assistants a JOIN conduit_assistant_versions v "
            + "ON v.assistant_id = a.assistant_id AND v.version = a.latest_version";
    /** Filters that are off when their parameter is null; $1 graph id, $2 name, $3 metadata. */
    private static final String FILTER = " WHERE ($1::text IS NULL OR v.graph_id = $1) AND ($2::text IS NULL OR v.name = $2) "
            + "AND ($3::text IS NULL OR v.metadata @> $3::text::jsonb)";
    /** Inserts version $2 of assistant $1; the version row's other columns from $3 to $10. */
    private static final String INSERT_VERSION = "INSERT INTO conduit_assistant_versions AS v (assistant_id, version, graph_id, name, "
            + "description, config, context, metadata, created_at, updated_at) ";
    private static final String VERSION_VALUES = "$3::text, $4::text, $5::text, $6::text::jsonb, $7::text::jsonb, $8::text::jsonb, "
            + "$9::timestamptz, $10::timestamptz";

    private final Pool pool;

    public PostgresAssistantStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Assistant> create(Assistant assistant, boolean doNothingIfExists) {
        String id = assistant.assistantId();
        // one statement: the version row is inserted only when the assistant row was
        String sql = "WITH a AS (INSERT INTO conduit_assistants (assistant_id, latest_version) VALUES ($1, $2) "
                + "ON CONFLICT (assistant_id) DO NOTHING RETURNING assistant_id) "
                + INSERT_VERSION + "SELECT a.assistant_id, $2, " + VERSION_VALUES + " FROM a RETURNING " + COLUMNS;
        return pool.preparedQuery(sql).execute(versionArgs(id, 1, assistant)).flatMap(rows -> {
            Optional<Assistant> created = first(rows);
            if (created.isPresent()) {
                return Uni.createFrom().item(created.get());
            }
            if (!doNothingIfExists) {
                return Uni.createFrom().failure(new AssistantExistsException(id));
            }
            return get(id).map(existing -> existing.orElseThrow(() -> new AssistantExistsException(id)));
        });
    }

    @Override
    public Uni<Optional<Assistant>> get(String assistantId) {
        return pool.preparedQuery("SELECT " + COLUMNS + LATEST + " WHERE a.assistant_id = $1").execute(Tuple.of(assistantId))
                .map(PostgresAssistantStore::first);
    }

    @Override
    public Uni<Optional<Assistant>> update(String assistantId, UnaryOperator<Assistant> change) {
        // Lock first, read after, in two statements: the read's snapshot then sees what an update that held the
        // lock before committed (one statement would read the row's old latest version, and clash on the number).
        String read = "SELECT " + COLUMNS + ", (SELECT max(m.version) FROM conduit_assistant_versions m "
                + "WHERE m.assistant_id = a.assistant_id) AS highest" + LATEST + " WHERE a.assistant_id = $1";
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT 1 FROM conduit_assistants WHERE assistant_id = $1 FOR UPDATE")
                .execute(Tuple.of(assistantId))
                .flatMap(locked -> conn.preparedQuery(read).execute(Tuple.of(assistantId)))
                .flatMap(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return Uni.createFrom().item(Optional.<Assistant>empty());
                    }
                    Row latest = it.next();
                    int version = latest.getInteger("highest") + 1;
                    Assistant next = change.apply(record(latest));
                    String sql = "WITH v AS (" + INSERT_VERSION + "VALUES ($1, $2, " + VERSION_VALUES + ") RETURNING *), "
                            + "u AS (UPDATE conduit_assistants SET latest_version = $2 WHERE assistant_id = $1) "
                            + "SELECT " + COLUMNS + " FROM v";
                    return conn.preparedQuery(sql).execute(versionArgs(assistantId, version, next)).map(PostgresAssistantStore::first);
                }));
    }

    @Override
    public Uni<List<Assistant>> versions(String assistantId, int limit, int offset) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_assistant_versions v WHERE v.assistant_id = $1 "
                + "ORDER BY v.version DESC LIMIT $2 OFFSET $3").execute(Tuple.of(assistantId, limit, offset)).map(PostgresAssistantStore::all);
    }

    @Override
    public Uni<Optional<Assistant>> setLatest(String assistantId, int version) {
        return pool.preparedQuery("WITH u AS (UPDATE conduit_assistants SET latest_version = $2 WHERE assistant_id = $1 "
                        + "AND EXISTS (SELECT 1 FROM conduit_assistant_versions WHERE assistant_id = $1 AND version = $2) RETURNING assistant_id) "
                        + "SELECT " + COLUMNS + " FROM conduit_assistant_versions v JOIN u ON u.assistant_id = v.assistant_id WHERE v.version = $2")
                .execute(Tuple.of(assistantId, version)).map(PostgresAssistantStore::first);
    }

    @Override
    public Uni<List<Assistant>> search(String graphId, String name, Map<String, Object> metadata, int limit, int offset, String sortBy, String sortOrder) {
        SortOrder sort;
        try {
            sort = SortOrder.of(sortBy, sortOrder, SORTS);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(e);
        }
        Tuple args = Tuple.tuple().addValue(graphId).addValue(name).addValue(jsonOrNull(metadata)).addValue(limit).addValue(offset);
        return pool.preparedQuery("SELECT " + COLUMNS + LATEST + FILTER + " ORDER BY " + sort.sql("v", "assistant_id") + " LIMIT $4 OFFSET $5")
                .execute(args).map(PostgresAssistantStore::all);
    }

    @Override
    public Uni<Long> count(String graphId, String name, Map<String, Object> metadata) {
        Tuple args = Tuple.tuple().addValue(graphId).addValue(name).addValue(jsonOrNull(metadata));
        return pool.preparedQuery("SELECT count(*)" + LATEST + FILTER).execute(args).map(rows -> rows.iterator().next().getLong(0));
    }

    @Override
    public Uni<Boolean> delete(String assistantId) {
        // the versions go with it (ON DELETE CASCADE)
        return pool.preparedQuery("DELETE FROM conduit_assistants WHERE assistant_id = $1").execute(Tuple.of(assistantId))
                .map(rows -> rows.rowCount() > 0);
    }

    private static Tuple versionArgs(String assistantId, int version, Assistant a) {
        return Tuple.tuple().addValue(assistantId).addValue(version).addValue(InputText.storable("graph_id", a.graphId()))
                .addValue(InputText.storable("name", a.name())).addValue(InputText.storable("description", a.description()))
                .addValue(json(a.config())).addValue(json(a.context())).addValue(json(a.metadata()))
                .addValue(time(a.createdAt())).addValue(time(a.updatedAt() == null ? a.createdAt() : a.updatedAt()));
    }

    private static Optional<Assistant> first(RowSet<Row> rows) {
        return SqlValues.first(rows, PostgresAssistantStore::record);
    }

    private static List<Assistant> all(RowSet<Row> rows) {
        return SqlValues.all(rows, PostgresAssistantStore::record);
    }

    private static Assistant record(Row r) {
        return new Assistant(r.getString("assistant_id"), r.getString("graph_id"), r.getString("name"), r.getString("description"),
                map(r, "config"), map(r, "context"), map(r, "metadata"), r.getInteger("version"),
                instant(r, "created_at"), instant(r, "updated_at"));
    }
}
