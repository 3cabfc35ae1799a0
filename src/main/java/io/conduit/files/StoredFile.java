package io.conduit.files;

import java.time.Instant;

/**
 * A file uploaded to a thread, as listed: its id, name, size in bytes, content type, when it came, and for a CSV
 * file what {@link CsvInspection} found (null for other files). The bytes are read with {@link FileStore#content}.
 */
public record StoredFile(String threadId, String fileId, String name, String contentType, long size, Instant createdAt,
                         CsvSummary csv) {
}
