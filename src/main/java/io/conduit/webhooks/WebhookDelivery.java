package io.conduit.webhooks;

import io.conduit.tools.ReachableAddresses;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Posts one webhook body, with retries: a connection error or a 5xx answer is tried again after a backoff that
 * doubles, up to {@code maxAttempts} tries; a 2xx ends it, any other answer (a 4xx, a redirect, which is not followed)
 * gives up. The host's addresses are checked ({@link ReachableAddresses}) before each try, off the event loop; the
 * JDK client is asynchronous, so nothing waits on a thread.
 */
final class WebhookDelivery {

    private static final Logger LOG = Logger.getLogger(WebhookDelivery.class);

    /** How a delivery ended, the metric's {@code outcome} tag. */
    enum Outcome {
        DELIVERED, REJECTED, FAILED, REFUSED;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final HttpClient client;
    private final ReachableAddresses addresses;
    private final WebhookSignature signature;
    private final int maxAttempts;
    private final Duration backoff;
    private final Duration maxBackoff;
    private final Duration timeout;
    /** Where the blocking DNS check runs: a virtual thread each. */
    private final Executor resolver;

    WebhookDelivery(HttpClient client, ReachableAddresses addresses, WebhookSignature signature, int maxAttempts,
                    Duration backoff, Duration maxBackoff, Duration timeout, Executor resolver) {
        this.client = client;
        this.addresses = addresses;
        this.signature = signature;
        this.maxAttempts = Math.max(1, maxAttempts);
        this.backoff = backoff;
        this.maxBackoff = maxBackoff;
        this.timeout = timeout;
        this.resolver = resolver;
    }

    /** Posts {@code body} to {@code url}; completes (never fails) with how it ended. */
    CompletableFuture<Outcome> post(String runId, String url, String body) {
        return attempt(runId, URI.create(url), body, 1);
    }

    private CompletableFuture<Outcome> attempt(String runId, URI uri, String body, int n) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                addresses.check(uri.getHost());
                return null;
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            } catch (java.net.UnknownHostException e) {
                throw new CompletionException(e);
            }
        }, resolver).thenCompose(refusal -> {
            if (refusal != null) {
                LOG.warnf("Webhook of run %s not sent: %s (conduit.webhooks.private-addresses)", runId, refusal);
                return CompletableFuture.completedFuture(Outcome.REFUSED);
            }
            return client.sendAsync(request(uri, body), HttpResponse.BodyHandlers.discarding()).thenCompose(r -> {
                int status = r.statusCode();
                if (status >= 200 && status < 300) {
                    return CompletableFuture.completedFuture(Outcome.DELIVERED);
                }
                if (status >= 500) {
                    return retry(runId, uri, body, n, "answered " + status);
                }
                LOG.warnf("Webhook of run %s to %s answered %d: not tried again", runId, uri.getHost(), status);
                return CompletableFuture.completedFuture(Outcome.REJECTED);
            });
        }).exceptionallyCompose(f -> retry(runId, uri, body, n, String.valueOf(f instanceof CompletionException c && c.getCause() != null ? c.getCause() : f)));
    }

    private CompletableFuture<Outcome> retry(String runId, URI uri, String body, int n, String why) {
        if (n >= maxAttempts) {
            LOG.warnf("Webhook of run %s to %s failed after %d attempt(s): %s", runId, uri.getHost(), n, why);
            return CompletableFuture.completedFuture(Outcome.FAILED);
        }
        long wait = Math.min(maxBackoff.toMillis(), backoff.toMillis() << Math.min(n - 1, 20));
        Executor later = CompletableFuture.delayedExecutor(wait, TimeUnit.MILLISECONDS, resolver);
        return CompletableFuture.supplyAsync(() -> null, later).thenCompose(x -> attempt(runId, uri, body, n + 1));
    }

    private HttpRequest request(URI uri, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (signature != null) {
            long now = System.currentTimeMillis() / 1000;
            b.header(WebhookSignature.TIMESTAMP_HEADER, Long.toString(now)).header(WebhookSignature.SIGNATURE_HEADER, signature.sign(now, body));
        }
        return b.build();
    }
}
