package io.conduit.runs.submission;

import io.conduit.runs.WebhookRefusedException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a run's {@code webhook} when the run is created, before anything is written: an absolute http(s) URL to a
 * host an operator listed. The addresses the host resolves to are checked again at each delivery (DNS may change).
 */
public final class WebhookTargets {

    private final Set<String> allowedHosts;

    public WebhookTargets(List<String> allowedHosts) {
        this.allowedHosts = allowedHosts.stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Throws {@link WebhookRefusedException} unless {@code webhook} is absent (null) or may be called. */
    public void check(Object webhook) {
        if (webhook == null) {
            return;
        }
        if (!(webhook instanceof String url) || url.isBlank()) {
            throw new WebhookRefusedException(WebhookRefusedException.INVALID, "must be an absolute http or https URL");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new WebhookRefusedException(WebhookRefusedException.INVALID, "is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getRawUserInfo() != null) {
            throw new WebhookRefusedException(WebhookRefusedException.INVALID,
                    "must be an absolute http or https URL with a host and no user info (relative paths are not supported)");
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (!allowedHosts.contains(host)) {
            throw new WebhookRefusedException(WebhookRefusedException.NOT_ALLOWED, allowedHosts.isEmpty()
                    ? "webhooks are not enabled on this server (conduit.webhooks.allowed-hosts is empty)"
                    : "host " + host + " is not in conduit.webhooks.allowed-hosts");
        }
    }
}
