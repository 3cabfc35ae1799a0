package io.conduit.runs.crons;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The crons' timer off: the scheduler looks only when a test asks ({@link CronScheduler#poll}), so ticks are the test's. */
public class CronTimerOff implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("conduit.crons.enabled", "false");
    }
}
