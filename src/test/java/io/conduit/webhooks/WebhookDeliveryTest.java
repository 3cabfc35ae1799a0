package io.conduit.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.conduit.tools.ReachableAddresses;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One delivery against a real receiver on loopback: what is retried, what is not, and where it may not go. */
class WebhookDeliveryTest {

    private HttpServer receiver;
    private final AtomicInteger hits = new AtomicInteger();
    private volatile int answer = 200;

    @BeforeEach
    void start() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            hits.incrementAndGet();
            if (answer == 302) {
                exchange.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data/");
            }
            exchange.sendResponseHeaders(answer, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() {
        receiver.stop(0);
    }

    private WebhookDelivery delivery(List<String> privateAddresses) {
        return new WebhookDelivery(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build(),
                ReachableAddresses.publicAnd(privateAddresses), new WebhookSignature("s"), 3, Duration.ofMillis(1),
                Duration.ofMillis(2), Duration.ofSeconds(10), Executors.newVirtualThreadPerTaskExecutor());
    }

    private WebhookDelivery.Outcome post(WebhookDelivery d) throws Exception {
        return d.post("r", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/h", "{}").get(60, TimeUnit.SECONDS);
    }

    @Test
    void a5xxIsTriedUpToMaxAttempts() throws Exception {
        answer = 503;
        assertThat(post(delivery(List.of("127.0.0.1")))).isEqualTo(WebhookDelivery.Outcome.FAILED);
        assertThat(hits.get()).isEqualTo(3);
    }

    @Test
    void a4xxIsNotTriedAgain() throws Exception {
        answer = 410;
        assertThat(post(delivery(List.of("127.0.0.1")))).isEqualTo(WebhookDelivery.Outcome.REJECTED);
        assertThat(hits.get()).isEqualTo(1);
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        answer = 302;
        assertThat(post(delivery(List.of("127.0.0.1")))).isEqualTo(WebhookDelivery.Outcome.REJECTED);
        assertThat(hits.get()).isEqualTo(1);
    }

    @Test
    void aLoopbackAddressNotListedIsRefusedBeforeConnecting() throws Exception {
        assertThat(post(delivery(List.of()))).isEqualTo(WebhookDelivery.Outcome.REFUSED);
        assertThat(hits.get()).isZero();
    }

    @Test
    void aConnectionErrorIsTriedAgain() throws Exception {
        receiver.stop(0); // nothing listens: every try is refused
        assertThat(post(delivery(List.of("127.0.0.1")))).isEqualTo(WebhookDelivery.Outcome.FAILED);
    }
}
