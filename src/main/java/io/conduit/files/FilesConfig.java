package io.conduit.files;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.util.Optional;

/** Files uploaded to threads: {@code conduit.files.*}. */
@ConfigMapping(prefix = "conduit.files")
public interface FilesConfig {

    enum Store { MEMORY, POSTGRES, DISK }

    /** Where files are kept; unset: where threads are ({@code conduit.checkpointer.store}). */
    Optional<Store> store();

    /** The directory of the {@code disk} store (created if missing). */
    Optional<Path> directory();

    /** The largest upload request accepted (the multipart body, its framing included): past it, 413. */
    @WithDefault("104857600")
    long maxUploadBytes();
}
