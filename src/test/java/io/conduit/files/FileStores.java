package io.conduit.files;

import io.conduit.persistence.PostgresFileStore;
import io.conduit.persistence.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/** Every {@link FileStore}, each supplier call an empty one, for {@link FileStoreContractTest}. */
public final class FileStores {

    private FileStores() {
    }

    public static Stream<Named<Supplier<FileStore>>> all() {
        return Stream.of(Named.of("memory", InMemoryFileStore::new),
                Named.of("disk", () -> {
                    try {
                        return new DiskFileStore(Files.createTempDirectory("conduit-files"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }),
                Named.of("postgres", () -> new PostgresFileStore(TestDatabase.schemaPool("files_contract"))));
    }
}
