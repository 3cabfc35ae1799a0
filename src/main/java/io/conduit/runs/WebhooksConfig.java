package io.conduit.runs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Webhooks: {@code conduit.webhooks.*}. A run created with {@code webhook} (a URL) has its final record POSTed there
 * when it ends, signed, with retries; only to the hosts listed here (docs/api.md, Webhooks).
 */
@ConfigMapping(prefix = "conduit.webhooks")
public interface WebhooksConfig {

    /**
     * Host names (or IP addresses) a webhook may name, compared exactly and case-insensitively. None listed: every run
     * asking for a webhook is refused at creation with 422 {@code webhook_not_allowed}.
     */
    Optional<List<String>> allowedHosts();

    /**
     * Non-public addresses (loopback, private, link-local, the cloud metadata address...) a listed host may resolve to:
     * addresses or CIDR blocks. Any other non-public address is refused at delivery, after DNS resolution.
     */
    Optional<List<String>> privateAddresses();

    /**
     * The HMAC-SHA256 key deliveries are signed with ({@code X-Conduit-Signature}); unset, they go unsigned (said once
     * in the log).
     */
    Optional<String> secret();

    /** Tries of one delivery, the first included; a connection error or a 5xx answer is tried again, a 4xx is not. */
    @WithDefault("5")
    int maxAttempts();

    /** Wait before the first retry; it doubles at each retry, up to {@link #maxBackoff()}. */
    @WithDefault("1s")
    Duration backoff();

    /** Longest wait between two tries. */
    @WithDefault("30s")
    Duration maxBackoff();

    /** How long one try may take (connecting and answering). */
    @WithDefault("10s")
    Duration timeout();
}
