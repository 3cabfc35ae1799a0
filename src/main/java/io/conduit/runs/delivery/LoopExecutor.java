package io.conduit.runs.delivery;

import io.vertx.core.Context;
import java.util.concurrent.Executor;

/**
 * Runs a connection's delivery on its event loop: at once when the caller is already on that loop (a run started
 * where its subscriber's connection lives: see {@code RunExecutor.Placement}), else queued to it. Queuing a task on
 * the caller's own loop would put each token behind every task that loop has pending, which under load added
 * milliseconds to every token for nothing.
 */
public final class LoopExecutor implements Executor {

    private final Context context;
    private volatile Thread loop;

    /** {@code context}: the connection's; its thread is learnt at once when made there, else by its first task. */
    public LoopExecutor(Context context) {
        this.context = context;
        if (io.vertx.core.Vertx.currentContext() == context) {
            loop = Thread.currentThread();
        } else {
            context.runOnContext(v -> loop = Thread.currentThread());
        }
    }

    @Override
    public void execute(Runnable task) {
        if (Thread.currentThread() == loop) {
            task.run();
        } else {
            context.runOnContext(v -> task.run());
        }
    }
}
