package io.conduit.files;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.NotFoundException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Files in a directory ({@code conduit.files.directory}): one folder per thread, and per file its bytes
 * ({@code <id>.data}) and what is listed of it ({@code <id>.json}, written last, so a file is listed only once whole).
 * Thread and file ids are hex-encoded into the names, so no id can reach outside the directory. Every file operation
 * runs on a worker thread.
 */
public final class DiskFileStore implements FileStore {

    private static final ObjectMapper JSON = JsonCodec.MAPPER;

    private final Path root;

    public DiskFileStore(Path root) {
        this.root = root;
    }

    @Override
    public Uni<StoredFile> put(StoredFile file, Path content) {
        return blocking(() -> {
            Path dir = Files.createDirectories(threadDir(file.threadId()));
            Path data = dir.resolve(name(file.fileId()) + ".data");
            Files.copy(content, data, StandardCopyOption.REPLACE_EXISTING);
            StoredFile stored = new StoredFile(file.threadId(), file.fileId(), file.name(), file.contentType(), Files.size(data),
                    file.createdAt(), file.csv());
            Path tmp = dir.resolve(name(file.fileId()) + ".json.tmp");
            JSON.writeValue(tmp.toFile(), stored);
            Files.move(tmp, dir.resolve(name(file.fileId()) + ".json"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return stored;
        });
    }

    @Override
    public Uni<List<StoredFile>> list(String threadId) {
        return blocking(() -> {
            List<StoredFile> files = new ArrayList<>();
            Path dir = threadDir(threadId);
            if (!Files.isDirectory(dir)) {
                return List.<StoredFile>of();
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.json")) {
                for (Path p : entries) {
                    files.add(JSON.readValue(p.toFile(), StoredFile.class));
                }
            }
            files.sort(Comparator.comparing(StoredFile::createdAt).thenComparing(StoredFile::fileId));
            return List.copyOf(files);
        });
    }

    @Override
    public Uni<Optional<StoredFile>> get(String threadId, String fileId) {
        return blocking(() -> {
            Path meta = threadDir(threadId).resolve(name(fileId) + ".json");
            try {
                return Optional.of(JSON.readValue(Files.readAllBytes(meta), StoredFile.class));
            } catch (NoSuchFileException e) {
                return Optional.<StoredFile>empty();
            }
        });
    }

    @Override
    public Multi<byte[]> content(String threadId, String fileId) {
        return get(threadId, fileId).onItem().transformToMulti(found -> found.isEmpty()
                ? Multi.createFrom().failure(new NotFoundException("File " + fileId + " not found"))
                : FileChunks.read(threadDir(threadId).resolve(name(fileId) + ".data")));
    }

    @Override
    public Uni<Boolean> delete(String threadId, String fileId) {
        return blocking(() -> {
            Path dir = threadDir(threadId);
            boolean listed = Files.deleteIfExists(dir.resolve(name(fileId) + ".json"));
            Files.deleteIfExists(dir.resolve(name(fileId) + ".data"));
            return listed;
        });
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return blocking(() -> {
            Path dir = threadDir(threadId);
            if (Files.isDirectory(dir)) {
                try (var walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
            return null;
        }).replaceWithVoid();
    }

    private Path threadDir(String threadId) {
        return root.resolve(name(threadId));
    }

    /** Any id as a safe file name: its UTF-8 bytes in hex (no separators, no dots, no case folding). */
    private static String name(String id) {
        return HexFormat.of().formatHex(id.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static <T> Uni<T> blocking(Callable<T> work) {
        return Uni.createFrom().item(() -> {
            try {
                return work.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
