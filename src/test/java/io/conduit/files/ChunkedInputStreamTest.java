package io.conduit.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Multi;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A 100 MB CSV read through the stream the stores hand out: the rows are all seen, and at no point are more than
 * three chunks (768 KiB) waiting in memory, so the file is never whole in the heap.
 */
class ChunkedInputStreamTest {

    @Test
    void a100MegabyteCsvIsReadWithAtMostThreeChunksInMemory() {
        String row = "north,apple,10,1.5\n";
        int rowsPerChunk = FileChunks.SIZE / row.length();
        byte[] chunk = row.repeat(rowsPerChunk).getBytes(StandardCharsets.UTF_8);
        int chunks = (100 * 1024 * 1024) / chunk.length + 1;
        AtomicLong emitted = new AtomicLong();
        AtomicLong maxAhead = new AtomicLong();
        AtomicLong consumedBytes = new AtomicLong();
        Multi<byte[]> content = Multi.createFrom().range(0, chunks + 1)
                .map(i -> i == 0 ? "region,product,units,price\n".getBytes(StandardCharsets.UTF_8) : chunk)
                .onItem().invoke(c -> {
                    // bytes handed to the stream that the parser has not read yet: what sits in memory
                    long ahead = emitted.addAndGet(c.length) - consumedBytes.get();
                    maxAhead.accumulateAndGet(ahead, Math::max);
                });
        long rows = 0;
        long units = 0;
        try (ChunkedInputStream in = new ChunkedInputStream(content);
             CsvRows csv = CsvRows.open(new java.io.FilterInputStream(in) {
                 @Override
                 public int read(byte[] b, int off, int len) throws java.io.IOException {
                     int n = super.read(b, off, len);
                     if (n > 0) {
                         consumedBytes.addAndGet(n);
                     }
                     return n;
                 }
             })) {
            for (CsvRows.Row r = csv.next(); r != null; r = csv.next()) {
                rows++;
                units += Long.parseLong(r.values()[2]);
            }
        }
        assertThat((long) chunks * chunk.length).isGreaterThan(100L * 1024 * 1024);
        assertThat(rows).isEqualTo((long) chunks * rowsPerChunk);
        assertThat(units).isEqualTo(rows * 10);
        // the stream holds the chunk being read and has asked for at most two more: never more than three chunks
        assertThat(maxAhead.get()).isLessThanOrEqualTo(3L * chunk.length);
    }
}
