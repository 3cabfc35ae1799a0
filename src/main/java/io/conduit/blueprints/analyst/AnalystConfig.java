package io.conduit.blueprints.analyst;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The analyst blueprint: {@code conduit.blueprints.analyst.*}. */
@ConfigMapping(prefix = "conduit.blueprints.analyst")
public interface AnalystConfig {

    /** Rounds of tool calls in one turn; then the model answers with what it has (no tools bound). */
    @WithDefault("5")
    int maxIterations();

    /** Rows (or groups) one tool result holds at most. */
    @WithDefault("50")
    int maxRows();

    /** Groups an aggregation may keep while it reads a file. */
    @WithDefault("10000")
    int maxGroups();

    /** Each CSV tool call's time (a 100 MB file is read whole by a filter). */
    @WithDefault("60s")
    Duration toolTimeout();

    /** Steps of one run, as for the default assistant. */
    @WithDefault("40")
    int recursionLimit();
}
