package io.conduit.persistence;

import io.conduit.runs.JsonMaps;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.pgclient.PgException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

/** Java values of the run, thread and assistant records as parameters of the reactive client, and back. */
final class SqlValues {

    /** SQLSTATE of a unique violation. */
    static final String UNIQUE_VIOLATION = "23505";

    private SqlValues() {
    }

    static OffsetDateTime time(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant instant(Row row, String column) {
        OffsetDateTime t = row.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }

    /** Passed as text and cast in SQL ({@code $n::text::jsonb}); null when there is no filter at all. */
    static String jsonOrNull(Map<String, Object> value) {
        return value == null || value.isEmpty() ? null : JsonMaps.encode(value);
    }

    static String json(Map<String, Object> value) {
        return JsonMaps.encode(value);
    }

    /** Reads a {@code jsonb} column selected as {@code column::text}. */
    static Map<String, Object> map(Row row, String column) {
        return JsonMaps.decode(row.getString(column));
    }

    static boolean isUniqueViolation(Throwable e) {
        return e instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState());
    }

    /** The first row as a record, or empty. */
    static <T> java.util.Optional<T> first(io.vertx.mutiny.sqlclient.RowSet<Row> rows, java.util.function.Function<Row, T> read) {
        var it = rows.iterator();
        return it.hasNext() ? java.util.Optional.of(read.apply(it.next())) : java.util.Optional.empty();
    }

    /** Every row as a record, in order. */
    static <T> java.util.List<T> all(io.vertx.mutiny.sqlclient.RowSet<Row> rows, java.util.function.Function<Row, T> read) {
        java.util.List<T> out = new java.util.ArrayList<>(rows.size());
        rows.forEach(r -> out.add(read.apply(r)));
        return out;
    }
}
