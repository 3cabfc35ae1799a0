package io.conduit.files;

import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;

/**
 * Takes an uploaded file into a thread: refuses it past the size limit; a CSV file (by name or content type) is read
 * once, on a worker thread, to check it and summarize it before anything is stored, so a malformed one is refused
 * (naming the line) and never listed.
 */
public final class FileUploads {

    private final FileStore store;
    private final long maxBytes;
    private final Clock clock;

    public FileUploads(FileStore store, long maxBytes, Clock clock) {
        this.store = store;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    /** Stores the upload at {@code content} (a temporary file the caller deletes). */
    public Uni<StoredFile> upload(String threadId, String name, String contentType, Path content) {
        return Uni.createFrom().item(() -> {
            try {
                long size = Files.size(content);
                if (size > maxBytes) {
                    throw new FileTooLargeException(maxBytes);
                }
                CsvSummary csv = null;
                if (isCsv(name, contentType)) {
                    try (InputStream in = Files.newInputStream(content)) {
                        csv = CsvInspection.inspect(in);
                    }
                }
                return new StoredFile(threadId, TimeOrderedIds.next(), name, csv != null ? "text/csv" : contentType(contentType), size,
                        clock.instant(), csv);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()).chain(file -> store.put(file, content));
    }

    static boolean isCsv(String name, String contentType) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        return name.toLowerCase(Locale.ROOT).endsWith(".csv") || type.startsWith("text/csv") || type.startsWith("application/csv");
    }

    private static String contentType(String given) {
        return given == null || given.isBlank() ? "application/octet-stream" : given;
    }
}
