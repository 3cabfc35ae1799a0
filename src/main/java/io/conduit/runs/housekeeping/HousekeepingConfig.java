package io.conduit.runs.housekeeping;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The cluster's housekeeping: {@code conduit.housekeeping.*}. */
@ConfigMapping(prefix = "conduit.housekeeping")
public interface HousekeepingConfig {

    /**
     * How often each replica looks whether it is the cluster's housekeeper (on Postgres, the replica holding an
     * advisory lock; in memory, the process) and, if so, does the chores that are due: threads past their time to live
     * and the long-term store's lapsed items every minute, token counts older than a month hourly. A chore comes at
     * most this late; when the housekeeper stops or loses its database connection another replica takes the role at
     * its next look.
     */
    @WithDefault("1m")
    Duration interval();
}
