package io.conduit.api;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Tests only: a fixed, small kernel send buffer for the HTTP server when {@code conduit.test.http-send-buffer-bytes}
 * is set, so that a client that stops reading fills the server's write queue after a few kilobytes instead of the
 * megabytes Linux would buffer on loopback (its send buffers grow to 4 MB). Quarkus has no property for it.
 */
@ApplicationScoped
public class SmallSocketBuffers implements HttpServerOptionsCustomizer {

    @ConfigProperty(name = "conduit.test.http-send-buffer-bytes")
    Optional<Integer> sendBuffer;

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        sendBuffer.ifPresent(options::setSendBufferSize);
    }
}
