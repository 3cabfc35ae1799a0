package io.conduit.runs.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.api.RunEventLogs;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.FrameLogs;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The outbox on its own and behind a real thread event log: merging keeps every character exactly once with
 * increasing ids (also across a reconnect from any id), the second bound drops the subscriber, a replay costs
 * nothing, and other subscribers of the same log get every event.
 */
class OutboxTest {

    private static final OutboxBounds BOUNDS = new OutboxBounds(1_000, 4_000);

    /** A token chunk of message {@code msg} as the classic {@code messages} mode writes it. */
    private static RunEvent token(long seq, String msg, String text) {
        return RunEvent.withText(seq, "r", "messages", "", msg, "[{\"content\":\"", text, "\",\"id\":\"" + msg + "\",\"seq\":" + seq + "},{}]");
    }

    private static RunEvent values(long seq, int size) {
        return new RunEvent(seq, "r", "values", "", "{\"v\":\"" + "x".repeat(size) + "\"}");
    }

    private static String text(RunEvent e) {
        return read(e).get(0).get("content").asText();
    }

    private static JsonNode read(RunEvent e) {
        try {
            return JsonCodec.MAPPER.readTree(e.data());
        } catch (Exception x) {
            throw new AssertionError("not JSON: " + e.data(), x);
        }
    }

    private static List<RunEvent> takeAll(Outbox o) {
        List<RunEvent> out = new ArrayList<>();
        for (RunEvent e = o.take(); e != null; e = o.take()) {
            out.add(e);
        }
        return out;
    }

    /** Words with what JSON must escape: quotes, backslashes, control characters, non-ASCII and a surrogate pair. */
    private static List<String> words(int n) {
        String[] odd = {"\"q\"", "back\\slash", "tab\t", "new\nline", "é", "😀", "\u0001", " plain"};
        List<String> w = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            w.add(odd[i % odd.length] + i);
        }
        return w;
    }

    @Test
    void aSubscriberThatKeepsUpGetsEveryEventAsItWas() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        List<RunEvent> sent = new ArrayList<>();
        List<RunEvent> got = new ArrayList<>();
        long seq = 0;
        for (String w : words(50)) {
            RunEvent e = token(seq++, "m1", w);
            sent.add(e);
            o.onEvent(e);
            got.addAll(takeAll(o));
        }
        assertThat(got).isEqualTo(sent);
        assertThat(o.merged()).isZero();
    }

    @Test
    void pastTheFirstBoundTextDeltasOfOneMessageAreMergedKeepingEveryCharacterOnceAndIdsIncreasing() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        o.onEvent(values(0, 1_200)); // the socket is full: this one waits, past the first bound
        List<String> words = words(300);
        long seq = 1;
        for (String w : words) {
            o.onEvent(token(seq++, "m1", w));
        }
        o.onEvent(values(seq, 10));
        List<RunEvent> got = takeAll(o);
        assertThat(got).hasSize(3);
        RunEvent merged = got.get(1);
        assertThat(merged.seq()).isEqualTo(300); // the last delta's id
        assertThat(text(merged)).isEqualTo(String.join("", words));
        assertThat(read(merged).get(0).get("seq").asLong()).as("the JSON around the text is the last delta's").isEqualTo(300);
        assertThat(got).extracting(RunEvent::seq).isSorted().doesNotHaveDuplicates();
        assertThat(o.merged()).isEqualTo(299);
    }

    @Test
    void onlyConsecutiveDeltasOfTheSameMessageAreMerged() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        o.onEvent(values(0, 1_200));
        o.onEvent(token(1, "m1", "a"));
        o.onEvent(token(2, "m1", "b"));
        o.onEvent(token(3, "m2", "c"));
        o.onEvent(token(4, "m2", "d"));
        o.onEvent(new RunEvent(5, "r", "custom", "", "{}"));
        o.onEvent(token(6, "m2", "e"));
        o.onEvent(new RunEvent(7, "r", "messages", "sub:1", token(7, "m2", "f").data(), token(7, "m2", "f").text()));
        List<RunEvent> got = takeAll(o);
        assertThat(got).extracting(RunEvent::seq).containsExactly(0L, 2L, 4L, 5L, 6L, 7L);
        assertThat(got.subList(1, 3)).extracting(OutboxTest::text).containsExactly("ab", "cd");
    }

    @Test
    void aReconnectFromAnyIdGivesEveryCharacterExactlyOnce() {
        List<String> words = words(120);
        List<RunEvent> log = new ArrayList<>();
        log.add(values(0, 1_200));
        for (int i = 0; i < words.size(); i++) {
            log.add(token(i + 1, "m1", words.get(i)));
        }
        // the client reads k events (merged as they came), drops, and replays from the log after the last id it got
        for (int k = 1; k <= 4; k++) {
            Outbox o = new Outbox(BOUNDS, e -> true);
            List<RunEvent> received = new ArrayList<>();
            int next = 0;
            while (received.size() < k && next < log.size()) {
                for (int burst = 0; burst < 37 && next < log.size(); burst++) {
                    o.onEvent(log.get(next++)); // a burst arrives while the socket is full
                }
                RunEvent e = o.take();
                if (e != null) {
                    received.add(e);
                }
            }
            long lastId = received.get(received.size() - 1).seq();
            StringBuilder all = new StringBuilder();
            received.stream().filter(e -> e.text() != null).forEach(e -> all.append(text(e)));
            log.stream().filter(e -> e.seq() > lastId && e.text() != null).forEach(e -> all.append(text(e)));
            assertThat(all.toString()).as("after " + k + " events").isEqualTo(String.join("", words));
        }
    }

    @Test
    void pastTheSecondBoundTheSubscriberIsDroppedAndItsQueueFreed() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        List<Outbox.Backlog> overflows = new ArrayList<>();
        RecordingSink sink = new RecordingSink(false);
        new OutboxDrain(o, Runnable::run, sink);
        long seq = 0;
        for (int i = 0; i < 20; i++) {
            o.onEvent(values(seq++, 300)); // nothing to merge: the queue grows
        }
        assertThat(o.overflowed()).isNotNull();
        assertThat(o.overflowed().bytes()).isGreaterThan(4_000);
        assertThat(sink.overflows).hasSize(1);
        assertThat(sink.sent).isEmpty();
        assertThat(o.queuedBytes()).isZero();
        assertThat(o.take()).isNull();
        assertThat(SlowConsumer.sseFrame(sink.overflows.get(0))).startsWith("event: error\ndata: {\"error\":\"slow_consumer\",\"message\":\"");
        assertThat(SlowConsumer.closeReason(sink.overflows.get(0)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(123);
    }

    @Test
    void mergingDelaysTheSecondBoundButDoesNotLiftIt() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        o.onEvent(values(0, 1_200));
        long seq = 1;
        while (o.overflowed() == null && seq < 10_000) {
            o.onEvent(token(seq++, "m1", "word "));
        }
        // ~2,800 bytes of text fit after the first bound, five bytes a word: the text alone ends it
        assertThat(o.overflowed()).isNotNull();
        assertThat(seq).isBetween(500L, 700L);
        assertThat(o.overflowed().merged()).isEqualTo(seq - 2); // tokens 1..seq-1 in one merge
    }

    @Test
    void oneLargeEventAloneIsNotFallingBehind() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        o.onEvent(values(0, 10_000));
        assertThat(o.overflowed()).isNull();
        assertThat(o.take().seq()).isZero();
    }

    @Test
    void aReplayIsNeitherCountedNorMerged() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        for (int i = 0; i < 200; i++) {
            o.onReplay(token(i, "m1", "w" + i));
        }
        o.onEvent(token(200, "m1", "live"));
        assertThat(o.overflowed()).isNull();
        assertThat(o.queuedBytes()).isLessThan(200);
        assertThat(takeAll(o)).hasSize(201);
        assertThat(o.queuedBytes()).isZero();
    }

    @Test
    void theEndComesAfterEveryEventAndOnlyOnce() {
        Outbox o = new Outbox(BOUNDS, e -> true);
        RecordingSink sink = new RecordingSink(true);
        new OutboxDrain(o, Runnable::run, sink);
        o.onEvent(token(0, "m1", "a"));
        o.onEnd();
        o.onEnd();
        assertThat(sink.sent).extracting(RunEvent::seq).containsExactly(0L);
        assertThat(sink.ends).isEqualTo(1);
        assertThat(o.finished()).isTrue();
    }

    @Test
    void aSlowSubscriberIsDroppedWhileAnotherOfTheSameLogGetsEveryEventAndTheRunNeverWaits() {
        RunEventLogs logs = new RunEventLogs(FrameLogs.of(Duration.ofMinutes(1), 1 << 24, 1 << 26));
        ThreadLog entries = FrameLogs.begin(logs.entries(), "t", "r");
        ThreadEventLog log = logs.log("t");
        Outbox fastBox = new Outbox(BOUNDS, e -> true);
        RecordingSink fast = new RecordingSink(true);
        new OutboxDrain(fastBox, Runnable::run, fast);
        Outbox slowBox = new Outbox(BOUNDS, e -> true);
        RecordingSink slow = new RecordingSink(false); // its socket never drains
        new OutboxDrain(slowBox, Runnable::run, slow);
        log.subscribeRun("r", -1, fastBox);
        log.subscribeRun("r", -1, slowBox);
        List<String> words = words(2_000);
        for (int i = 0; i < words.size(); i++) {
            entries.append("r", token(i, "m1", words.get(i))); // returns at once whatever the subscribers do
        }
        entries.append("r", new RunEvent(words.size(), "r", "end", "", "null"));
        entries.end("r", System.currentTimeMillis());
        assertThat(fast.sent).extracting(RunEvent::seq).containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(0, words.size()).boxed().toList());
        assertThat(fast.ends).isEqualTo(1);
        assertThat(fast.overflows).isEmpty();
        assertThat(slow.overflows).hasSize(1);
        assertThat(slow.overflows.get(0).merged()).isPositive();
        assertThat(slowBox.queuedBytes()).isZero();
        // it reconnects from the last id it got (none): the log gives it everything, and a replay never overflows
        Outbox again = new Outbox(BOUNDS, e -> true);
        RecordingSink back = new RecordingSink(true);
        new OutboxDrain(again, Runnable::run, back);
        log.subscribeRun("r", -1, again);
        assertThat(back.sent).isEqualTo(fast.sent);
    }

    /** A transport: always or never writable; sends synchronously. */
    private static final class RecordingSink implements OutboxDrain.Sink {
        final boolean writable;
        final List<RunEvent> sent = new ArrayList<>();
        final List<Outbox.Backlog> overflows = new ArrayList<>();
        int ends;

        RecordingSink(boolean writable) {
            this.writable = writable;
        }

        @Override
        public boolean writable() {
            return writable;
        }

        @Override
        public void send(RunEvent event) {
            sent.add(event);
        }

        @Override
        public void end() {
            ends++;
        }

        @Override
        public void overflow(Outbox.Backlog backlog) {
            overflows.add(backlog);
        }
    }
}
