package io.conduit.api;

import io.conduit.runs.crons.CronTimerOff;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link LangGraphSdkCronsContract} on PostgreSQL. */
@QuarkusTest
@TestProfile(CronTimerOff.class)
class LangGraphSdkCronsTest extends LangGraphSdkCronsContract {
}
