package io.conduit.persistence;

import static io.conduit.persistence.SqlValues.instant;
import static io.conduit.persistence.SqlValues.time;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.conduit.files.CsvSummary;
import io.conduit.files.FileChunks;
import io.conduit.files.FileStore;
import io.conduit.files.StoredFile;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.NotFoundException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Thread files in PostgreSQL (V6): a row per file, and its bytes in rows of 256 KiB chunks, written one after the
 * other in the file's transaction and read one at a time as the reader asks for them, so neither an upload nor a
 * read ever holds more than a chunk or two in memory.
 */
public final class PostgresFileStore implements FileStore {

    private static final String COLUMNS = "thread_id, file_id, name, content_type, size, chunks, csv::text AS csv, created_at";

    private final Pool pool;

    public PostgresFileStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<StoredFile> put(StoredFile file, Path content) {
        AtomicInteger seq = new AtomicInteger();
        AtomicLong size = new AtomicLong();
        return pool.withTransaction(conn -> conn.preparedQuery("DELETE FROM conduit_thread_files WHERE thread_id = $1 AND file_id = $2")
                .execute(Tuple.of(file.threadId(), file.fileId()))
                .chain(() -> conn.preparedQuery("INSERT INTO conduit_thread_files (" + COLUMNS.replace("csv::text AS csv", "csv")
                                + ") VALUES ($1, $2, $3, $4, 0, 0, $5::text::jsonb, $6)")
                        .execute(Tuple.tuple().addValue(file.threadId()).addValue(file.fileId()).addValue(file.name())
                                .addValue(file.contentType()).addValue(csv(file.csv())).addValue(time(file.createdAt()))))
                .chain(() -> FileChunks.read(content)
                        .onItem().transformToUniAndConcatenate(chunk -> {
                            size.addAndGet(chunk.length);
                            return conn.preparedQuery("INSERT INTO conduit_thread_file_chunks (thread_id, file_id, seq, data) VALUES ($1, $2, $3, $4)")
                                    .execute(Tuple.of(file.threadId(), file.fileId(), seq.getAndIncrement(), io.vertx.core.buffer.Buffer.buffer(chunk)));
                        })
                        .collect().last())
                .chain(() -> conn.preparedQuery("UPDATE conduit_thread_files SET size = $3, chunks = $4 WHERE thread_id = $1 AND file_id = $2 RETURNING " + COLUMNS)
                        .execute(Tuple.of(file.threadId(), file.fileId(), size.get(), seq.get())))
                .map(rows -> read(rows.iterator().next())));
    }

    @Override
    public Uni<List<StoredFile>> list(String threadId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_thread_files WHERE thread_id = $1 ORDER BY created_at, file_id")
                .execute(Tuple.of(threadId)).map(rows -> SqlValues.all(rows, PostgresFileStore::read));
    }

    @Override
    public Uni<Optional<StoredFile>> get(String threadId, String fileId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_thread_files WHERE thread_id = $1 AND file_id = $2")
                .execute(Tuple.of(threadId, fileId)).map(rows -> SqlValues.first(rows, PostgresFileStore::read));
    }

    @Override
    public Multi<byte[]> content(String threadId, String fileId) {
        return pool.preparedQuery("SELECT chunks FROM conduit_thread_files WHERE thread_id = $1 AND file_id = $2")
                .execute(Tuple.of(threadId, fileId))
                .onItem().transformToMulti(rows -> {
                    var it = rows.iterator();
                    if (!it.hasNext()) {
                        return Multi.createFrom().failure(new NotFoundException("File " + fileId + " not found"));
                    }
                    int chunks = it.next().getInteger("chunks");
                    // one query per chunk, each sent when the reader asks for the next: back-pressure reaches the table
                    return Multi.createFrom().range(0, chunks).onItem().transformToUniAndConcatenate(seq -> pool
                            .preparedQuery("SELECT data FROM conduit_thread_file_chunks WHERE thread_id = $1 AND file_id = $2 AND seq = $3")
                            .execute(Tuple.of(threadId, fileId, seq))
                            .map(r -> {
                                var row = r.iterator();
                                if (!row.hasNext()) {
                                    throw new NotFoundException("File " + fileId + " was deleted while it was read");
                                }
                                return row.next().getBuffer("data").getBytes();
                            }));
                });
    }

    @Override
    public Uni<Boolean> delete(String threadId, String fileId) {
        return pool.preparedQuery("DELETE FROM conduit_thread_files WHERE thread_id = $1 AND file_id = $2")
                .execute(Tuple.of(threadId, fileId)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return pool.preparedQuery("DELETE FROM conduit_thread_files WHERE thread_id = $1").execute(Tuple.of(threadId)).replaceWithVoid();
    }

    private static StoredFile read(Row row) {
        String csv = row.getString("csv");
        return new StoredFile(row.getString("thread_id"), row.getString("file_id"), row.getString("name"), row.getString("content_type"),
                row.getLong("size"), instant(row, "created_at"), csv == null ? null : summary(csv));
    }

    private static String csv(CsvSummary summary) {
        try {
            return summary == null ? null : JsonCodec.MAPPER.writeValueAsString(summary);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static CsvSummary summary(String json) {
        try {
            return JsonCodec.MAPPER.readValue(json, CsvSummary.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored CSV summary that cannot be read", e);
        }
    }
}
