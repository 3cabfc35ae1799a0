package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.stream.ProtocolEventLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Everything a thread's protocol log holds and gets, read from the bean as a transport would (replay from the start,
 * then live), with a wait on a condition of what came so far (a bound, not a timing: it only limits a hang).
 */
final class ProtocolRecorder implements RunEventListener, AutoCloseable {

    private final List<RunEvent> events = new ArrayList<>();
    private final ThreadEventLog.Subscription subscription;

    private ProtocolRecorder(ProtocolEventLogs logs, String thread) {
        this.subscription = logs.log(thread).subscribeThread(-1L, this);
    }

    static ProtocolRecorder of(ProtocolEventLogs logs, String thread) {
        return new ProtocolRecorder(logs, thread);
    }

    @Override
    public synchronized void onEvent(RunEvent event) {
        events.add(event);
        notifyAll();
    }

    @Override
    public void onEnd() {
    }

    synchronized List<RunEvent> events() {
        return List.copyOf(events);
    }

    /** Waits until what came satisfies {@code done}; fails past {@code max}. */
    synchronized List<RunEvent> await(Predicate<List<RunEvent>> done, Duration max) {
        long until = System.nanoTime() + max.toNanos();
        while (!done.test(events)) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the protocol log did not get there within " + max + "; it holds " + events.stream().map(RunEvent::data).toList());
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return List.copyOf(events);
    }

    /** Waits for the {@code n}-th root terminal lifecycle event (the end of the n-th run). */
    List<RunEvent> awaitRunsEnded(int n, Duration max) {
        return await(es -> es.stream().filter(RunEvent::terminal).count() >= n, max);
    }

    @Override
    public void close() {
        subscription.cancel();
    }

    static JsonNode json(RunEvent e) {
        try {
            return JsonCodec.MAPPER.readTree(e.data());
        } catch (Exception x) {
            throw new AssertionError("not JSON: " + e.data(), x);
        }
    }

    static JsonNode data(RunEvent e) {
        return json(e).path("params").path("data");
    }

    /** {@code method[:data.event]@ns}, to read orders at a glance. */
    static String label(RunEvent e) {
        JsonNode d = data(e);
        return e.mode() + (d.has("event") ? ":" + d.get("event").asText() : "") + "@" + e.ns();
    }
}
