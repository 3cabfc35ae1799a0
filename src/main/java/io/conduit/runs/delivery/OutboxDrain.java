package io.conduit.runs.delivery;

import io.conduit.runs.events.RunEvent;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Moves an {@link Outbox}'s events to its transport, on the connection's context only (so the transport's socket
 * is touched by one thread), as long as the socket takes more: the transport calls {@link #resume()} when a full
 * socket has drained (Vert.x {@code drainHandler}). Wake-ups that arrive while it runs fold into one more pass, as a
 * Mutiny operator's drain loop does; nothing waits.
 */
public final class OutboxDrain {

    /** The transport's side, called on its context only. */
    public interface Sink {

        /** Whether the socket takes more now (Vert.x: {@code !writeQueueFull()}). */
        boolean writable();

        void send(RunEvent event);

        /** Every event was sent and the log said nothing more will come. */
        void end();

        /**
         * The subscriber fell past the outbox's second bound: its queue is dropped; tell it why and disconnect it
         * (SSE: {@link SlowConsumer#sseFrame}; WebSocket: close with {@link SlowConsumer#WEBSOCKET_CLOSE_CODE} and
         * {@link SlowConsumer#closeReason}). It reconnects from the last id it received and loses nothing.
         */
        void overflow(Outbox.Backlog backlog);
    }

    private final Outbox outbox;
    private final Executor context;
    private final Sink sink;
    private final AtomicInteger wip = new AtomicInteger();
    private boolean done;

    /** {@code context}: runs a task on the connection's context (Vert.x: {@code r -> ctx.runOnContext(v -> r.run())}). */
    public OutboxDrain(Outbox outbox, Executor context, Sink sink) {
        this.outbox = outbox;
        this.context = context;
        this.sink = sink;
        outbox.onReady(this::resume);
    }

    /** Sends what can be sent now; call it when the socket has room again. Cheap to call often, from any thread. */
    public void resume() {
        if (wip.getAndIncrement() == 0) {
            context.execute(this::loop);
        }
    }

    private void loop() {
        int missed = 1;
        do {
            pass();
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void pass() {
        if (done) {
            return;
        }
        Outbox.Backlog overflow = outbox.overflowed();
        if (overflow != null) {
            done = true;
            SlowConsumer.disconnected();
            sink.overflow(overflow);
            return;
        }
        while (sink.writable()) {
            RunEvent e = outbox.take();
            if (e == null) {
                break;
            }
            sink.send(e);
        }
        if (outbox.finished()) {
            done = true;
            sink.end();
        }
    }
}
