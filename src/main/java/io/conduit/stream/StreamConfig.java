package io.conduit.stream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The thread protocol's transports ({@code conduit.stream.*}). */
@ConfigMapping(prefix = "conduit.stream")
public interface StreamConfig {

    /**
     * The largest WebSocket text message a client may send, in bytes (UTF-8). A larger one closes the connection with
     * 1009 (message too big). Commands are small; this only bounds what one frame may cost the server.
     */
    @WithDefault("1048576")
    int maxFrameBytes();

    /**
     * How often each WebSocket connection is sent a ping frame. Pings keep idle connections open through proxies
     * and load balancers that close silent ones, and their pongs show the client is still there.
     */
    @WithDefault("20s")
    Duration pingInterval();

    /**
     * A WebSocket connection that has answered no ping for this long is half-open (the client went away without
     * closing): it is closed (1001) and its subscriptions dropped. Keep it a few ping intervals long.
     */
    @WithDefault("60s")
    Duration pongTimeout();

    /** How often an open {@code POST /threads/{id}/stream/events} stream gets a {@code :} heartbeat comment. */
    @WithDefault("10s")
    Duration heartbeat();
}
