package io.conduit.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What every HTTP front door applies alike: {@code conduit.api.*}. */
@ConfigMapping(prefix = "conduit.api")
public interface ApiConfig {

    /**
     * The largest request body any endpoint accepts, in bytes, whether the client declares its length or sends it
     * chunked: past it, 413 {@code body_too_large} in the door's error shape, and nothing is created. File uploads
     * have their own limit, {@code conduit.files.max-upload-bytes}.
     */
    @WithDefault("1048576")
    long maxBodyBytes();
}
