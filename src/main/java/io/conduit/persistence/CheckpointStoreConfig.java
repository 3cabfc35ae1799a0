package io.conduit.persistence;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.util.Optional;

/** Where threads are kept: {@code conduit.checkpointer.*}. */
@ConfigMapping(prefix = "conduit.checkpointer")
public interface CheckpointStoreConfig {

    enum Store { MEMORY, POSTGRES }

    /**
     * {@code memory} (threads die with the process) or {@code postgres}. Unset: memory in dev mode and tests, while
     * the packaged app refuses to start ({@link CheckpointerProducer}) so that nobody loses threads to a forgotten flag.
     */
    @WithName("store")
    Optional<Store> chosen();

    /** The store in use: the one chosen, else memory (prod never gets here unchosen: it refuses to start). */
    default Store store() {
        return chosen().orElse(Store.MEMORY);
    }
}
