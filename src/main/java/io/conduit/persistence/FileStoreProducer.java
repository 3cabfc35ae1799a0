package io.conduit.persistence;

import io.conduit.files.DiskFileStore;
import io.conduit.files.FileStore;
import io.conduit.files.FilesConfig;
import io.conduit.files.InMemoryFileStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The thread files' store, {@code conduit.files.store}: unset, it is where threads are (memory or Postgres); {@code disk}
 * keeps them in {@code conduit.files.directory}. Postgres files need the threads in Postgres too (its schema is
 * migrated with theirs).
 */
@ApplicationScoped
public class FileStoreProducer {

    @Produces
    @Singleton
    FileStore fileStore(FilesConfig files, CheckpointStoreConfig threads, Instance<Pool> pool, SchemaMigration schema) {
        FilesConfig.Store store = files.store().orElse(threads.store() == CheckpointStoreConfig.Store.POSTGRES
                ? FilesConfig.Store.POSTGRES : FilesConfig.Store.MEMORY);
        return switch (store) {
            case MEMORY -> new InMemoryFileStore();
            case DISK -> new DiskFileStore(files.directory().orElseThrow(() -> new IllegalStateException(
                    "conduit.files.store=disk needs conduit.files.directory, the directory to keep the files in")));
            case POSTGRES -> {
                if (threads.store() != CheckpointStoreConfig.Store.POSTGRES) {
                    throw new IllegalStateException("conduit.files.store=postgres needs conduit.checkpointer.store=postgres");
                }
                schema.ensureMigrated();
                yield new PostgresFileStore(pool.get());
            }
        };
    }
}
