package io.conduit.aisdk;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.events.MessageBlocks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A run's AI messages, read from its engine events by the thread protocol's rules ({@link MessageBlocks}, shared with
 * the protocol and AG-UI) under the protocol's namespaces ({@link #namespace}); it keeps the tasks that are running,
 * whose open messages fail when the run stops. Fed in order, on one thread.
 */
final class TaskMessages {

    private final MessageBlocks<String> blocks;
    /** The running tasks' namespaces, by task id, in the order they started. */
    private final LinkedHashMap<String, String> openTasks = new LinkedHashMap<>();
    private GraphEvent.Tag lastTag;
    private String lastNs;

    TaskMessages(MessageBlocks.Sink<String> sink) {
        this.blocks = new MessageBlocks<>(sink);
    }

    /**
     * The protocol's namespace of an event: its graph's ({@code ""} at the root, {@code node:task|...} in a subgraph)
     * for run-level events, else its task's, {@code <node>:<task id>} below its graph's.
     */
    static String namespace(GraphEvent.Tag tag) {
        if (tag.node() == null || tag.taskId() == null) {
            return tag.ns();
        }
        String task = tag.node() + ":" + tag.taskId();
        return tag.ns().isEmpty() ? task : tag.ns() + "|" + task;
    }

    /** Reads an engine event; the ones that are not about messages or tasks are passed over. */
    void on(GraphEvent e) {
        switch (e) {
            case GraphEvent.Token t -> blocks.text(ns(t.tag()), t.messageId(), t.text());
            case GraphEvent.Reasoning r -> blocks.reasoning(ns(r.tag()), r.messageId(), r.text());
            case GraphEvent.ToolCallChunk c -> blocks.toolCallChunk(ns(c.tag()), c);
            case GraphEvent.ChildEnded c when MessageBlocks.modelCall(c.kind()) -> blocks.modelEnded(ns(c.tag()), c);
            case GraphEvent.TaskStarted t -> openTasks.put(t.taskId(), ns(t.tag()));
            case GraphEvent.TaskFinished t -> {
                blocks.taskFinished(ns(t.tag()), t.update());
                openTasks.remove(t.taskId());
            }
            default -> {
            }
        }
    }

    /** The run stopped (interrupted, failed, ended): the running tasks' open messages fail, last first, {@code why}. */
    void stopTasks(String why) {
        List<String> newestFirst = new ArrayList<>(openTasks.sequencedValues().reversed());
        openTasks.clear();
        for (String ns : newestFirst) {
            blocks.taskStopped(ns, why == null ? "the message was not finished" : why);
        }
    }

    /** {@link #namespace}, not made again for each token of a task (its events share their tag). */
    private String ns(GraphEvent.Tag tag) {
        if (tag != lastTag && !tag.equals(lastTag)) {
            lastTag = tag;
            lastNs = namespace(tag);
        }
        return lastNs;
    }
}
