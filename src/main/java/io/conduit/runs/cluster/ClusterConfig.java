package io.conduit.runs.cluster;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How replicas on one database pass each other their runs' frames: {@code conduit.cluster.*}. */
@ConfigMapping(prefix = "conduit.cluster")
public interface ClusterConfig {

    /**
     * Whether a client may follow, join and replay a run another replica executes (its frames relayed through the
     * database). Only with {@code conduit.checkpointer.store=postgres}; a single replica pays one row per watched
     * thread and nothing per token, so it stays on unless the database is to see no such writes at all.
     */
    @WithDefault("true")
    boolean events();

    /**
     * How long a relay waits after a frame before it writes, gathering the frames that follow (of every thread) into
     * the same insert: what a client on another replica waits at most beyond the insert itself. At 0 a relay writes at
     * the end of its event loop's turn; frames that come while an insert is on its way go together in the next one, so
     * batches grow with the load on their own (measured in docs/benchmarks.md: 0 was faster than 5 ms at 100 and at
     * 1,000 relayed streams). A longer linger saves the database inserts when few streams are relayed.
     */
    @WithDefault("0ms")
    Duration frameLinger();

    /**
     * How long, after a run ended on another replica, a join of it here waits for that replica's frames before it
     * answers with the thread's final values instead. They come within milliseconds unless the machine is overloaded
     * or that replica died before it wrote them; a run that ended longer ago than this is answered at once. A run
     * followed here whose end has not come this long after its record's end is ended from the record.
     */
    @WithDefault("10s")
    Duration relayWait();

    /** The most frames one insert carries. */
    @WithDefault("2000")
    int maxBatch();

    /**
     * How long a watch stays recorded unless renewed (it is renewed every third of it): a replica that dies stops
     * costing the others their relays this long after.
     */
    @WithDefault("30s")
    Duration watchTtl();
}
