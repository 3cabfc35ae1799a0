package io.conduit.files;

import io.conduit.runs.ThreadData;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a thread's uploaded files are kept (memory, Postgres or a directory; {@code conduit.files.store}). Content
 * goes in from a file on disk and comes out as a stream of chunks, so no file is ever whole in memory (but in the
 * memory store). Nothing here blocks the calling thread.
 */
public interface FileStore extends ThreadData {

    /** Stores {@code content} (read, not moved) under {@code file}'s ids; returns what is listed. */
    Uni<StoredFile> put(StoredFile file, Path content);

    /** The thread's files, oldest first. */
    Uni<List<StoredFile>> list(String threadId);

    Uni<Optional<StoredFile>> get(String threadId, String fileId);

    /**
     * The file's bytes in order, in chunks, read as they are requested (back-pressure reaches the store). Fails with
     * {@link io.conduit.runs.NotFoundException} when there is no such file.
     */
    Multi<byte[]> content(String threadId, String fileId);

    /** False when there was no such file. */
    Uni<Boolean> delete(String threadId, String fileId);
}
