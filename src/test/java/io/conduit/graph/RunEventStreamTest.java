package io.conduit.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A run's events: in order, buffered without demand, ended once, from any thread. */
class RunEventStreamTest {

    private static GraphEvent event(int i) {
        return new GraphEvent.Token(new GraphEvent.Tag("r", "t", "", "n", i), "m", "t" + i);
    }

    private static List<String> texts(AssertSubscriber<GraphEvent> sub) {
        return sub.getItems().stream().map(e -> ((GraphEvent.Token) e).text()).toList();
    }

    @Test
    void eventsWithoutDemandWaitInOrderAndTheEndFollowsTheLast() {
        AtomicReference<RunEventStream.Emitter> out = new AtomicReference<>();
        AtomicInteger ended = new AtomicInteger();
        AssertSubscriber<GraphEvent> sub = new RunEventStream(e -> {
            e.onTermination(ended::incrementAndGet);
            out.set(e);
        }).subscribe().withSubscriber(AssertSubscriber.create(0));

        out.get().emit(event(1));
        out.get().emit(event(2));
        out.get().complete();
        assertThat(sub.getItems()).isEmpty();
        sub.assertNotTerminated();

        sub.request(1);
        assertThat(texts(sub)).containsExactly("t1");
        sub.assertNotTerminated();
        sub.request(1);
        sub.assertCompleted();
        assertThat(texts(sub)).containsExactly("t1", "t2");
        assertThat(ended).hasValue(1);
        out.get().emit(event(3));
        assertThat(sub.getItems()).hasSize(2);
    }

    @Test
    void aCancelRunsTheCallbackOnceAndNothingFollows() {
        AtomicReference<RunEventStream.Emitter> out = new AtomicReference<>();
        AtomicInteger ended = new AtomicInteger();
        AssertSubscriber<GraphEvent> sub = new RunEventStream(e -> {
            e.onTermination(ended::incrementAndGet);
            out.set(e);
        }).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        out.get().emit(event(1));
        sub.cancel();
        out.get().emit(event(2));
        out.get().complete();

        assertThat(texts(sub)).containsExactly("t1");
        sub.assertNotTerminated();
        assertThat(ended).hasValue(1);
    }

    @Test
    void aCallbackSetAfterTheCancelRunsAtOnce() {
        AtomicReference<RunEventStream.Emitter> out = new AtomicReference<>();
        AssertSubscriber<GraphEvent> sub = new RunEventStream(out::set).subscribe().withSubscriber(AssertSubscriber.create(1));
        sub.cancel();
        AtomicInteger ended = new AtomicInteger();

        out.get().onTermination(ended::incrementAndGet);

        assertThat(ended).hasValue(1);
    }

    @Test
    void aFailureEndsTheStreamAfterWhatWasEmitted() {
        AssertSubscriber<GraphEvent> failedAtStart = new RunEventStream(e -> {
            throw new IllegalStateException("no start");
        }).subscribe().withSubscriber(AssertSubscriber.create(1));
        failedAtStart.assertFailedWith(IllegalStateException.class, "no start");

        AssertSubscriber<GraphEvent> sub = new RunEventStream(e -> {
            e.emit(event(1));
            e.fail(new IllegalArgumentException("broken"));
        }).subscribe().withSubscriber(AssertSubscriber.create(0));
        sub.assertNotTerminated();
        sub.request(5);
        assertThat(texts(sub)).containsExactly("t1");
        sub.assertFailedWith(IllegalArgumentException.class, "broken");
    }

    @Test
    void eventsFromManyThreadsAllArriveEachThreadsInItsOrder() throws InterruptedException {
        int threads = 4;
        int each = 5_000;
        AtomicReference<RunEventStream.Emitter> out = new AtomicReference<>();
        AssertSubscriber<GraphEvent> sub = new RunEventStream(out::set).subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            pool.execute(() -> {
                try {
                    go.await();
                    for (int i = 0; i < each; i++) {
                        out.get().emit(new GraphEvent.Token(new GraphEvent.Tag("r", "t", "", "n", i), "m" + thread, "x"));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            });
        }
        go.countDown();
        assertThat(finished.await(60, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();
        out.get().complete();

        sub.assertCompleted();
        assertThat(sub.getItems()).hasSize(threads * each);
        List<List<Integer>> steps = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String message = "m" + t;
            steps.add(sub.getItems().stream().filter(e -> ((GraphEvent.Token) e).messageId().equals(message))
                    .map(e -> e.tag().step()).toList());
        }
        steps.forEach(s -> assertThat(s).isSorted().hasSize(each));
    }
}
