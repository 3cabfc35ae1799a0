package io.conduit.persistence;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where threads are kept: {@code conduit.checkpointer.*}. */
@ConfigMapping(prefix = "conduit.checkpointer")
public interface CheckpointStoreConfig {

    enum Store { MEMORY, POSTGRES }

    /** {@code memory} (the embedded default: threads die with the process) or {@code postgres}. */
    @WithDefault("memory")
    Store store();
}
