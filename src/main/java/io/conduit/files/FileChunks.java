package io.conduit.files;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** A file on disk as a stream of chunks, each read on a worker thread when requested: disk IO never runs on an event loop. */
public final class FileChunks {

    /** The size of the chunks the stores read and write. */
    public static final int SIZE = 256 * 1024;

    private FileChunks() {
    }

    public static Multi<byte[]> read(Path path) {
        return Multi.createFrom().resource(() -> open(path),
                        in -> Multi.createBy().repeating()
                                .uni(() -> Uni.createFrom().item(() -> next(in)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()))
                                .until(chunk -> chunk.length == 0))
                .withFinalizer(FileChunks::close);
    }

    private static InputStream open(Path path) {
        try {
            return Files.newInputStream(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] next(InputStream in) {
        try {
            byte[] buf = in.readNBytes(SIZE);
            return buf.length == SIZE ? buf : Arrays.copyOf(buf, buf.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // read to the end or abandoned: nothing to do
        }
    }
}
