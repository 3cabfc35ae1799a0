package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.cluster.FrameExchange.Appended;
import io.conduit.runs.cluster.FrameExchange.Claim;
import io.conduit.runs.cluster.FrameExchange.Cursor;
import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Rows;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.RunEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The frame exchange on a real PostgreSQL: frames stored once and in order, wake-ups, watches, claims. */
class PostgresFrameExchangeTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static Vertx vertx;
    private static PgSubscriber subscriber;
    private static PostgresFrameExchange exchange;
    private static final BlockingQueue<String> appended = new LinkedBlockingQueue<>();
    private static final BlockingQueue<Appended> batches = new LinkedBlockingQueue<>();
    private static final BlockingQueue<Watch> watched = new LinkedBlockingQueue<>();
    private static final BlockingQueue<Claim> claims = new LinkedBlockingQueue<>();

    @BeforeAll
    static void connect() {
        vertx = Vertx.vertx();
        subscriber = TestDatabase.subscriber(vertx);
        exchange = new PostgresFrameExchange(TestDatabase.pool(), subscriber);
        exchange.onAppended(b -> {
            batches.add(b);
            if (b.named()) {
                appended.addAll(b.threadIds());
            }
        });
        exchange.onWatch(watched::add);
        exchange.onClaimed(claims::add);
        subscriber.connect().await().atMost(WAIT);
    }

    @AfterAll
    static void close() {
        subscriber.close().await().atMost(WAIT);
        vertx.closeAndAwait();
    }

    @Test
    void framesComeBackInOrderOnceEachWithTheirTextAndTheirThreadIsNamedInAWakeUp() throws Exception {
        String thread = "fx-" + UUID.randomUUID();
        RunEvent token = RunEvent.withText(12, "r1", "messages", "", "m1", "[{\"content\":\"", "h\"i", "\"}]");
        List<Frame> frames = List.of(frame(thread, new RunEvent(11, "r1", "metadata", "", "{\"run_id\":\"r1\"}")),
                frame(thread, token), endOf(thread, "r1"));
        exchange.append(frames).await().atMost(WAIT);
        exchange.append(List.of(frame(thread, token))).await().atMost(WAIT); // a relay's replay

        List<Frame> read = exchange.after(List.of(new Cursor(thread, 0)), 100).await().atMost(WAIT).frames();
        assertThat(read).hasSize(3);
        assertThat(read.get(0).event()).isEqualTo(frames.get(0).event());
        assertThat(read.get(1).event()).isEqualTo(token);
        assertThat(read.get(1).event().text()).isEqualTo(token.text());
        assertThat(read.get(2).event()).isNull();
        assertThat(read.get(2).endedRunId()).isEqualTo("r1");
        assertThat(read).extracting(Frame::id).isSorted();
        Rows after = exchange.after(List.of(new Cursor(thread, read.get(1).id()), new Cursor("fx-none", 0)), 100).await().atMost(WAIT);
        assertThat(after.frames()).hasSize(1);
        assertThat(after.newest()).containsEntry(thread, read.get(2).id()).containsEntry("fx-none", 0L);
        assertThat(nextNamed(thread)).isTrue();
    }

    @Test
    void oneReadGivesEachThreadsRowsAfterItsCursorInOrderUpToTheLimitPerThread() {
        String a = "fx-" + UUID.randomUUID();
        String b = "fx-" + UUID.randomUUID();
        List<Frame> frames = new ArrayList<>();
        for (int seq = 1; seq <= 3; seq++) {
            frames.add(frame(a, new RunEvent(seq, "r", "values", "", "{}")));
            frames.add(frame(b, new RunEvent(seq, "r", "values", "", "{}")));
        }
        exchange.append(frames).await().atMost(WAIT);
        Rows first = exchange.after(List.of(new Cursor(a, 0), new Cursor(b, 0)), 2).await().atMost(WAIT);
        assertThat(first.frames()).extracting(f -> f.threadId() + ":" + f.event().seq())
                .containsExactlyInAnyOrder(a + ":1", a + ":2", b + ":1", b + ":2");
        assertThat(first.frames()).extracting(Frame::id).isSorted();
        long lastOfA = first.frames().stream().filter(f -> f.threadId().equals(a)).mapToLong(Frame::id).max().orElseThrow();
        Rows rest = exchange.after(List.of(new Cursor(a, lastOfA)), 2).await().atMost(WAIT);
        assertThat(rest.frames()).extracting(f -> f.event().seq()).containsExactly(3L);
    }

    @Test
    void aWakeUpNamesItsProcessAndItsIdsAndAProcesssRowsAreReadOnFromTheLastOneRead() throws Exception {
        String t = "fx-" + UUID.randomUUID();
        String u = "fx-" + UUID.randomUUID();
        String p = "p-" + UUID.randomUUID();
        exchange.append(List.of(new Frame(0, t, "classic", p, new RunEvent(1, "r", "values", "", "{}"), null),
                new Frame(0, u, "classic", p, new RunEvent(2, "r", "values", "", "{}"), null))).await().atMost(WAIT);
        Appended first = nextBatchOf(p);
        assertThat(first.threadIds()).containsExactlyInAnyOrder(t, u);
        assertThat(first.lastId()).isGreaterThan(first.firstId());
        List<Frame> read = exchange.since(Map.of(p, first.firstId() - 1), 100).await().atMost(WAIT);
        assertThat(read).extracting(f -> f.event().seq()).containsExactly(1L, 2L);

        exchange.append(List.of(new Frame(0, t, "classic", p, new RunEvent(3, "r", "values", "", "{}"), null))).await().atMost(WAIT);
        Appended second = nextBatchOf(p);
        assertThat(second.firstId()).isGreaterThan(first.lastId());
        assertThat(exchange.since(Map.of(p, first.lastId(), "p-none", 0L), 100).await().atMost(WAIT))
                .extracting(f -> f.event().seq()).containsExactly(3L);
    }

    private static Appended nextBatchOf(String origin) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Appended b = batches.poll(100, TimeUnit.MILLISECONDS);
            if (b != null && b.origin().equals(origin)) {
                return b;
            }
        }
        throw new AssertionError("no wake-up from " + origin);
    }

    @Test
    void aBatchOfMoreThreadsThanAWakeUpCanNameIsOneWakeUpNamingNoneAndItsRowsAreReadOnAsAnyOther() throws Exception {
        String p = "p-" + UUID.randomUUID();
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < 400; i++) { // 40 characters each: 16,000 in all, twice what a NOTIFY carries
            frames.add(new Frame(0, "fx-" + UUID.randomUUID(), "classic", p, new RunEvent(1, "r", "values", "", "{}"), null));
        }
        exchange.append(frames).await().atMost(WAIT);
        Appended batch = nextBatchOf(p);
        assertThat(batch.named()).as("too many threads to name").isFalse();
        List<Frame> read = exchange.since(Map.of(p, batch.firstId() - 1), 1_000).await().atMost(WAIT);
        assertThat(read).extracting(Frame::threadId).containsExactlyElementsOf(frames.stream().map(Frame::threadId).toList());
        assertThat(read.getLast().id()).isEqualTo(batch.lastId());
    }

    @Test
    void watchesAreToldRenewedDroppedAndExpire() throws Exception {
        String thread = "fx-" + UUID.randomUUID();
        Watch w = new Watch(thread, "classic", "p1");
        exchange.watch(w, Duration.ofMinutes(1)).await().atMost(WAIT);
        assertThat(next(watched, w)).isTrue();
        assertThat(exchange.watches().await().atMost(WAIT)).contains(w);
        exchange.renew(List.of(), List.of(w), Duration.ofMinutes(1)).await().atMost(WAIT);
        assertThat(exchange.watches().await().atMost(WAIT)).doesNotContain(w);
        exchange.renew(List.of(w), List.of(), Duration.ofMinutes(1)).await().atMost(WAIT);
        assertThat(exchange.watches().await().atMost(WAIT)).as("recorded again by its renewal (lost to a crash)").contains(w);
        assertThat(next(watched, w)).as("and told again, so that the owner's relay starts again now").isTrue();

        Watch lapsing = new Watch(thread, "protocol", "p2");
        exchange.watch(lapsing, Duration.ofMillis(-1)).await().atMost(WAIT);
        assertThat(exchange.watches().await().atMost(WAIT)).doesNotContain(lapsing);
        exchange.expire(Duration.ofMinutes(5)).await().atMost(WAIT);
    }

    @Test
    void aClaimIsToldToEveryReplica() throws Exception {
        String thread = "fx-" + UUID.randomUUID();
        exchange.claimed(thread, "r9", "p1").await().atMost(WAIT);
        assertThat(next(claims, new Claim(thread, "r9", "p1"))).isTrue();
    }

    private static boolean nextNamed(String thread) throws InterruptedException {
        return next(appended, thread);
    }

    private static <T> boolean next(BlockingQueue<T> queue, T wanted) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            T got = queue.poll(100, TimeUnit.MILLISECONDS);
            if (wanted.equals(got)) {
                return true;
            }
        }
        return false;
    }

    private static Frame frame(String thread, RunEvent e) {
        return make(thread, "classic", e, null);
    }

    private static Frame endOf(String thread, String runId) {
        return make(thread, "", null, runId);
    }

    private static Frame make(String thread, String format, RunEvent e, String ended) {
        return new Frame(0, thread, format, "p1", e, ended);
    }
}
