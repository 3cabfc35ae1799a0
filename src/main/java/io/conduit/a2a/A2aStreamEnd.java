package io.conduit.a2a;

import io.conduit.runs.events.EndGuard;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;

/**
 * A task's events end with a final status update, {@code failed} when the log ended the run without its end (a run
 * stopped before it had event numbers, a replica that went away): an A2A client always learns the task ended.
 */
final class A2aStreamEnd extends EndGuard {

    private final String taskId;
    private final String contextId;

    A2aStreamEnd(String taskId, String contextId, RunEventListener next) {
        super(next);
        this.taskId = taskId;
        this.contextId = contextId;
    }

    @Override
    protected boolean ends(RunEvent e) {
        return A2aEvents.END.equals(e.mode()) || A2aEvents.ASKED.equals(e.mode());
    }

    @Override
    protected RunEvent missingEnd(boolean any) {
        String update = A2aJson.statusUpdate(taskId, contextId, A2aJson.status(A2aJson.FAILED, System.currentTimeMillis(),
                A2aJson.agentMessage(taskId + "-unfinished", taskId, contextId,
                        "the task's events ended before the task did; ask tasks/get for its state")), true).toString();
        if (!any) {
            update = A2aJson.task(taskId, contextId, A2aJson.status(A2aJson.FAILED, System.currentTimeMillis(), null)).toString();
        }
        return new RunEvent(Long.MAX_VALUE, taskId, A2aEvents.END, "", update);
    }
}
