package io.conduit;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Runs, threads, checkpoints and crons in memory instead of PostgreSQL: the profile of a contract's in-memory
 * subclass. One class for all of them, so that Quarkus starts the application once for those that run in a row.
 */
public class InMemoryStores implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("conduit.checkpointer.store", "memory");
    }
}
