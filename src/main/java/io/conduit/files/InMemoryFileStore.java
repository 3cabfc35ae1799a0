package io.conduit.files;

import io.conduit.runs.NotFoundException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Files in the heap, for the embedded default (threads die with the process, their files too). */
public final class InMemoryFileStore implements FileStore {

    private record Entry(StoredFile file, byte[] bytes) {
    }

    private final Map<String, Map<String, Entry>> byThread = new ConcurrentHashMap<>();

    @Override
    public Uni<StoredFile> put(StoredFile file, Path content) {
        return Uni.createFrom().item(() -> {
            try {
                return Files.readAllBytes(content);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()).map(bytes -> {
            StoredFile stored = new StoredFile(file.threadId(), file.fileId(), file.name(), file.contentType(), bytes.length,
                    file.createdAt(), file.csv());
            byThread.computeIfAbsent(file.threadId(), t -> new ConcurrentHashMap<>()).put(file.fileId(), new Entry(stored, bytes));
            return stored;
        });
    }

    @Override
    public Uni<List<StoredFile>> list(String threadId) {
        List<StoredFile> files = new ArrayList<>();
        byThread.getOrDefault(threadId, Map.of()).values().forEach(e -> files.add(e.file()));
        files.sort(Comparator.comparing(StoredFile::createdAt).thenComparing(StoredFile::fileId));
        return Uni.createFrom().item(List.copyOf(files));
    }

    @Override
    public Uni<Optional<StoredFile>> get(String threadId, String fileId) {
        return Uni.createFrom().item(Optional.ofNullable(entry(threadId, fileId)).map(Entry::file));
    }

    @Override
    public Multi<byte[]> content(String threadId, String fileId) {
        return Multi.createFrom().deferred(() -> {
            Entry e = entry(threadId, fileId);
            if (e == null) {
                return Multi.createFrom().failure(new NotFoundException("File " + fileId + " not found"));
            }
            byte[] all = e.bytes();
            int chunks = (all.length + FileChunks.SIZE - 1) / FileChunks.SIZE;
            return Multi.createFrom().range(0, chunks)
                    .map(i -> Arrays.copyOfRange(all, i * FileChunks.SIZE, Math.min(all.length, (i + 1) * FileChunks.SIZE)));
        });
    }

    @Override
    public Uni<Boolean> delete(String threadId, String fileId) {
        Map<String, Entry> files = byThread.get(threadId);
        return Uni.createFrom().item(files != null && files.remove(fileId) != null);
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        byThread.remove(threadId);
        return Uni.createFrom().voidItem();
    }

    private Entry entry(String threadId, String fileId) {
        return byThread.getOrDefault(threadId, Map.of()).get(fileId);
    }
}
