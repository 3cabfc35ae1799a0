package io.conduit.api;

import io.conduit.runs.crons.CronTimerOff;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.Map;

/** {@link LangGraphSdkCronsContract} with crons, runs, threads and checkpoints in memory. */
@QuarkusTest
@TestProfile(LangGraphSdkCronsInMemoryTest.InMemory.class)
class LangGraphSdkCronsInMemoryTest extends LangGraphSdkCronsContract {

    public static class InMemory extends CronTimerOff {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = new HashMap<>(super.getConfigOverrides());
            c.put("conduit.checkpointer.store", "memory");
            return c;
        }
    }
}
