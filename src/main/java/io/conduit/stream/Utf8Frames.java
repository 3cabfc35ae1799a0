package io.conduit.stream;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.Utf8FrameValidator;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.impl.ConnectionBase;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Every WebSocket of the service (the thread protocol's, AG-UI's) closes a connection whose text frame is not UTF-8
 * with 1007, as RFC 6455 says, rather than reading it with U+FFFD in place of the bad bytes: Vert.x decodes text frames
 * leniently and websockets-next hands the endpoints a {@code String}, so they could not tell. Netty's own validator
 * does the check, on the connection's pipeline ahead of Vert.x, fragment by fragment (a message split across frames is
 * checked whole); it sends the close frame and closes the channel, and the endpoint's {@code @OnClose} cleans up as for
 * any close. Installed when the upgrade is asked for: the pipeline is the connection's, the same before and after.
 */
@ApplicationScoped
public class Utf8Frames implements HttpUpgradeCheck {

    static final String HANDLER = "conduit-utf8-frames";
    /** Vert.x's connection handler, which the WebSocket frames reach last. */
    private static final String VERTX_HANDLER = "handler";

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        if (context.httpRequest().connection() instanceof ConnectionBase c) {
            ChannelPipeline pipeline = c.channel().pipeline();
            if (pipeline.get(HANDLER) == null && pipeline.get(VERTX_HANDLER) != null) {
                pipeline.addBefore(VERTX_HANDLER, HANDLER, new Validator());
            }
        }
        return CheckResult.permitUpgrade();
    }

    /**
     * Netty's validator, whose close frame (1007) is the whole answer: the exception it throws after sending it would only
     * reach Vert.x as a connection error, so it stops here.
     */
    static final class Validator extends Utf8FrameValidator {

        Validator() {
            super(true);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            try {
                super.channelRead(ctx, msg);
            } catch (CorruptedWebSocketFrameException e) {
                // the frame was released and the close frame sent; the channel closes after it
            }
        }
    }
}
