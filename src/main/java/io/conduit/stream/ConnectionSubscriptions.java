package io.conduit.stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadEventLog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The subscriptions of one WebSocket connection to one thread. The connection follows the thread's protocol log once,
 * live, and sends each event once if any of its subscriptions matches (however many do). A new subscription is
 * answered, then replayed the log's matching events, then followed live, with no gap and no repeat: that happens
 * while the log is locked (appends wait), so the answer and the replay are written before any later event.
 */
public final class ConnectionSubscriptions implements RunEventListener {

    /** Makes a connection's subscriptions on a thread, writing to {@code sink}. */
    @FunctionalInterface
    public interface Factory {
        ConnectionSubscriptions create(String threadId, EventSink sink);
    }

    private final String threadId;
    private final java.util.function.Supplier<ThreadEventLog> logs;
    private final EventSink sink;
    private ThreadEventLog log;
    private final Map<String, EventFilter> filters = new ConcurrentHashMap<>();
    /** The filters as an array, read for every event (rebuilt on the rare subscribe and unsubscribe). */
    private volatile EventFilter[] active = new EventFilter[0];
    private ThreadEventLog.Subscription live;
    private volatile boolean closed;

    /** {@code logs} gives the thread's log when the first subscription comes (an idle log may expire before). */
    public ConnectionSubscriptions(String threadId, java.util.function.Supplier<ThreadEventLog> logs, EventSink sink) {
        this.threadId = threadId;
        this.logs = logs;
        this.sink = sink;
    }

    /**
     * Adds a subscription and writes, in this order, its success answer for command {@code id}, the log's matching
     * events after {@code since} (all of them when null), then its live events.
     */
    public void subscribe(com.fasterxml.jackson.databind.JsonNode id, EventFilter filter, Long since) {
        String subscriptionId = TimeOrderedIds.next();
        ThreadEventLog log = log();
        // the log's own lock: appends (and so live deliveries) wait until the answer and the replay are written
        synchronized (log.entries()) {
            if (closed) {
                return;
            }
            // read inside the call; nothing live can reach it while the lock is held
            List<RunEvent> replay = LogReplay.after(log, since == null ? -1L : since, e -> notice(e) || filter.matches(e.mode(), e.ns()));
            filters.put(subscriptionId, filter);
            active = filters.values().toArray(EventFilter[]::new);
            if (live == null) {
                live = log.subscribeThread(null, this);
            }
            if (since != null) {
                // the client has the thread through since: another replica's relay replaying a run from its start
                // must not hand it those frames again, out of order (a drained replica relaying its last run late)
                live.skipRelayedThrough(since);
            }
            long events = replay.stream().filter(e -> !notice(e)).count();
            ObjectNode result = JsonCodec.MAPPER.createObjectNode().put("subscription_id", subscriptionId).put("replayed_events", events);
            sink.answer(CommandAnswers.success(id, result, threadId, Math.max(0, log.lastSeq())).toString());
            for (RunEvent e : replay) {
                sink.replay(e);
            }
        }
    }

    /** False when there is no such subscription. */
    public boolean unsubscribe(String subscriptionId) {
        boolean removed = filters.remove(subscriptionId) != null;
        active = filters.values().toArray(EventFilter[]::new);
        return removed;
    }

    @Override
    public void onEvent(RunEvent e) {
        if (closed || active.length == 0) {
            return;
        }
        if (notice(e)) {
            sink.event(e);
            return;
        }
        for (EventFilter f : active) {
            if (f.matches(e.mode(), e.ns())) {
                sink.event(e);
                return; // one copy per connection, however many subscriptions match
            }
        }
    }

    /**
     * The log's notice that a replay lost events to its memory bounds: a protocol error message (no command id), sent
     * whatever the filters.
     */
    static boolean notice(RunEvent e) {
        return "error".equals(e.mode());
    }

    @Override
    public void onEnd() {
        // a thread subscription does not end with a run; the connection stays open
    }

    private synchronized ThreadEventLog log() {
        if (log == null) {
            log = logs.get();
        }
        return log;
    }

    /** Drops every subscription (the connection closed). */
    public void close() {
        ThreadEventLog log;
        synchronized (this) {
            closed = true;
            log = this.log;
        }
        if (log == null) {
            return;
        }
        synchronized (log.entries()) {
            closed = true;
            filters.clear();
            active = new EventFilter[0];
            if (live != null) {
                live.cancel();
                live = null;
            }
        }
    }

    public int size() {
        return filters.size();
    }
}
