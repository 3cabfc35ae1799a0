package io.conduit.webhooks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.WebhooksConfig;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.wire.RunJson;
import io.conduit.runs.wire.WireState;
import io.conduit.runs.worker.RunObserver;
import io.conduit.tools.ReachableAddresses;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.http.HttpClient;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;

/**
 * Posts a run's final record to its {@code webhook} once this replica has recorded its end (whichever replica began
 * it: the webhook is kept in the run's kwargs). The body is LangGraph's: the run as {@code GET /threads/{t}/runs/{r}}
 * answers it, with {@code run_started_at}, {@code run_ended_at}, {@code webhook_sent_at}, the thread's {@code values}
 * and, for a failed run, {@code error}. Counted in {@code conduit.webhook.deliveries} by outcome.
 */
@ApplicationScoped
public class WebhookObserver implements RunObserver {

    private static final Logger LOG = Logger.getLogger(WebhookObserver.class);

    private final RunStore runs;
    private final GraphRegistry graphs;
    private final WebhooksConfig config;
    private final WebhookSignature signature;
    private final MeterRegistry meters;
    /** Made at the first webhook: a JDK client sets up TLS as it is built, which a start without webhooks need not pay. */
    private volatile WebhookDelivery delivery;

    @Inject
    public WebhookObserver(RunStore runs, GraphRegistry graphs, WebhooksConfig config, MeterRegistry meters) {
        this.runs = runs;
        this.graphs = graphs;
        this.meters = meters;
        this.config = config;
        this.signature = config.secret().filter(s -> !s.isBlank()).map(WebhookSignature::new).orElse(null);
        if (signature == null && config.allowedHosts().filter(h -> !h.isEmpty()).isPresent()) {
            LOG.warn("conduit.webhooks.secret is not set: webhooks are sent unsigned");
        }
    }

    private WebhookDelivery delivery() {
        WebhookDelivery d = delivery;
        if (d == null) {
            synchronized (this) {
                d = delivery;
                if (d == null) {
                    HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(config.timeout()).build();
                    d = new WebhookDelivery(client, ReachableAddresses.publicAnd(config.privateAddresses().orElse(List.of())), signature,
                            config.maxAttempts(), config.backoff(), config.maxBackoff(), config.timeout(), Executors.newVirtualThreadPerTaskExecutor());
                    delivery = d;
                }
            }
        }
        return d;
    }

    @Override
    public void stoppedBeforeStart(Run run, String graphId) {
        if (run.spec().others().get("webhook") instanceof String url) {
            send(run, graphId, url, Instant.now(), RunStatus.INTERRUPTED, null);
        }
    }

    @Override
    public Watch began(Run run, String graphId) {
        if (!(run.spec().others().get("webhook") instanceof String url)) {
            return Watch.NONE;
        }
        Instant startedAt = Instant.now();
        return new Watch() {
            @Override
            public void recorded(RunStatus status, String error) {
                send(run, graphId, url, startedAt, status, error);
            }
        };
    }

    /** Never throws: it is called on the worker's path that records the run's end. */
    private void send(Run run, String graphId, String url, Instant startedAt, RunStatus status, String error) {
        try {
            read(run, graphId, url, startedAt, status, error);
        } catch (RuntimeException e) {
            LOG.warnf("Webhook of run %s not sent: %s", run.runId(), e.toString());
        }
    }

    /**
     * Reads the run's record as it ended; a stateless run's record has gone with its thread by now, so its webhook
     * carries the record as the run began (its status set to the end) and no values.
     */
    private void read(Run known, String graphId, String url, Instant startedAt, RunStatus status, String error) {
        Instant endedAt = Instant.now();
        String runId = known.runId();
        runs.get(runId).chain(found -> found.isEmpty()
                        ? io.smallrye.mutiny.Uni.createFrom().item(payload(known, status, startedAt, endedAt, null, error))
                        : values(found.get(), graphId).map(values -> payload(found.get(), status, startedAt, endedAt, values, error)))
                .subscribe().with(body -> {
                    if (body != null) {
                        delivery().post(runId, url, body).thenAccept(o -> meters.counter("conduit.webhook.deliveries", "outcome", o.tag()).increment());
                    }
                }, f -> LOG.warnf("Webhook of run %s not sent: its record could not be read (%s)", runId, f.toString()));
    }

    /** The thread's values after the run, null when there are none (a stateless run's thread is gone). */
    private io.smallrye.mutiny.Uni<ObjectNode> values(Run run, String graphId) {
        try {
            return graphs.byGraphId(graphId).graph().state(run.threadId())
                    .map(s -> s.map(state -> WireState.values(state.values())).orElse(null))
                    .onFailure().recoverWithNull();
        } catch (RuntimeException e) {
            return io.smallrye.mutiny.Uni.createFrom().nullItem();
        }
    }

    static String payload(Run run, RunStatus status, Instant startedAt, Instant endedAt, ObjectNode values, String error) {
        ObjectNode o = RunJson.of(run);
        o.put("status", status.wire());
        o.put("run_started_at", startedAt.toString());
        o.put("run_ended_at", endedAt.toString());
        o.put("webhook_sent_at", Instant.now().toString());
        if (values != null) {
            o.set("values", values);
        }
        if (error != null) {
            o.put("error", error);
        }
        return o.toString();
    }
}
