package io.conduit.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.runs.NotFoundException;
import io.smallrye.mutiny.Uni;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What every {@link FileStore} does alike: memory, disk and Postgres. */
class FileStoreContractTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static final CsvSummary CSV = new CsvSummary(List.of(new CsvSummary.Column("city", "string"),
            new CsvSummary.Column("sales", "integer")), 2);

    @ParameterizedTest
    @MethodSource("io.conduit.files.FileStores#all")
    void aStoredFileIsListedGotAndReadBackByteForByte(Supplier<FileStore> stores) throws IOException {
        FileStore store = stores.get();
        String thread = thread();
        byte[] bytes = random(FileChunks.SIZE * 2 + 1234); // three chunks, the last a short one
        StoredFile put = await(store.put(file(thread, "f1", "data.bin", T0, null), temp(bytes)));
        assertThat(put.size()).isEqualTo(bytes.length);
        assertThat(put.name()).isEqualTo("data.bin");
        assertThat(await(store.get(thread, "f1"))).contains(put);
        assertThat(await(store.list(thread))).containsExactly(put);
        assertThat(read(store.content(thread, "f1").collect().asList().await().atMost(TIMEOUT))).isEqualTo(bytes);
        try (InputStream in = new ChunkedInputStream(store.content(thread, "f1"))) {
            assertThat(in.readAllBytes()).isEqualTo(bytes);
        }
    }

    @ParameterizedTest
    @MethodSource("io.conduit.files.FileStores#all")
    void aCsvSummaryAndAnEmptyFileSurviveTheStore(Supplier<FileStore> stores) throws IOException {
        FileStore store = stores.get();
        String thread = thread();
        StoredFile csv = await(store.put(file(thread, "c", "sales.csv", T0, CSV), temp("city,sales\nParis,3\nLyon,4\n".getBytes())));
        StoredFile empty = await(store.put(file(thread, "e", "empty.txt", T0.plusMillis(5), null), temp(new byte[0])));
        assertThat(await(store.get(thread, "c")).orElseThrow().csv()).isEqualTo(CSV);
        assertThat(empty.size()).isZero();
        assertThat(store.content(thread, "e").collect().asList().await().atMost(TIMEOUT)).allMatch(b -> b.length == 0);
        assertThat(await(store.list(thread))).containsExactly(csv, empty);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.files.FileStores#all")
    void filesAreListedOldestFirstAndOnlyInTheirThread(Supplier<FileStore> stores) throws IOException {
        FileStore store = stores.get();
        String a = thread();
        String b = thread();
        StoredFile second = await(store.put(file(a, "x2", "two.txt", T0.plusSeconds(2), null), temp("2".getBytes())));
        StoredFile first = await(store.put(file(a, "x1", "one.txt", T0.plusSeconds(1), null), temp("1".getBytes())));
        await(store.put(file(b, "y", "other.txt", T0, null), temp("y".getBytes())));
        assertThat(await(store.list(a))).containsExactly(first, second);
        assertThat(await(store.get(b, "x1"))).isEmpty();
        assertThatThrownBy(() -> store.content(b, "x1").collect().asList().await().atMost(TIMEOUT)).isInstanceOf(NotFoundException.class);
        assertThat(await(store.list(thread()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.files.FileStores#all")
    void deleteRemovesOneFileAndDeleteThreadAllOfThem(Supplier<FileStore> stores) throws IOException {
        FileStore store = stores.get();
        String a = thread();
        String b = thread();
        await(store.put(file(a, "1", "1.txt", T0, null), temp("1".getBytes())));
        StoredFile keep = await(store.put(file(a, "2", "2.txt", T0.plusMillis(1), null), temp("2".getBytes())));
        StoredFile other = await(store.put(file(b, "3", "3.txt", T0, null), temp("3".getBytes())));
        assertThat(await(store.delete(a, "1"))).isTrue();
        assertThat(await(store.delete(a, "1"))).isFalse();
        assertThat(await(store.delete(b, "2"))).isFalse();
        assertThat(await(store.list(a))).containsExactly(keep);
        await(store.deleteThread(a));
        await(store.deleteThread(thread())); // nothing to delete is fine
        assertThat(await(store.list(a))).isEmpty();
        assertThatThrownBy(() -> store.content(a, "2").collect().asList().await().atMost(TIMEOUT)).isInstanceOf(NotFoundException.class);
        assertThat(await(store.list(b))).containsExactly(other);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.files.FileStores#all")
    void aReaderThatStopsEarlyReleasesTheFile(Supplier<FileStore> stores) throws IOException {
        FileStore store = stores.get();
        String thread = thread();
        byte[] bytes = random(FileChunks.SIZE * 4);
        await(store.put(file(thread, "big", "big.bin", T0, null), temp(bytes)));
        try (InputStream in = new ChunkedInputStream(store.content(thread, "big"))) {
            assertThat(in.readNBytes(10)).isEqualTo(java.util.Arrays.copyOf(bytes, 10));
        }
        // the store is not held: the file can be deleted at once
        assertThat(await(store.delete(thread, "big"))).isTrue();
    }

    private static StoredFile file(String thread, String id, String name, Instant at, CsvSummary csv) {
        return new StoredFile(thread, id, name, csv == null ? "application/octet-stream" : "text/csv", -1, at, csv);
    }

    private static Path temp(byte[] bytes) throws IOException {
        Path p = Files.createTempFile("upload", ".bin");
        Files.write(p, bytes);
        p.toFile().deleteOnExit();
        return p;
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static byte[] read(List<byte[]> chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        chunks.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static String thread() {
        return "t-" + UUID.randomUUID();
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
