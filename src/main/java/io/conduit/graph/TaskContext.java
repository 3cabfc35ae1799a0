package io.conduit.graph;

import io.conduit.checkpoint.Stored;
import io.conduit.kernel.JsonCodec;
import java.util.List;

/** The {@link NodeContext} of one task of a run. */
final class TaskContext implements NodeContext {

    private final RunLoop run;
    private final Task task;
    private final GraphEvent.Tag tag;
    private final List<Stored> resumes;
    private int interruptsCalled;

    TaskContext(RunLoop run, Task task, GraphEvent.Tag tag, List<Stored> resumes) {
        this.run = run;
        this.task = task;
        this.tag = tag;
        this.resumes = resumes;
    }

    @Override
    public String runId() {
        return tag.runId();
    }

    @Override
    public String threadId() {
        return tag.threadId();
    }

    @Override
    public String ns() {
        return tag.ns();
    }

    @Override
    public String node() {
        return task.node();
    }

    @Override
    public String taskId() {
        return task.id();
    }

    @Override
    public int step() {
        return tag.step();
    }

    @Override
    public <T> T input(Class<T> type) {
        return task.input() == null ? null : task.input().decode(JsonCodec.of(type));
    }

    @Override
    public void token(String messageId, String text) {
        run.emit(new GraphEvent.Token(tag, messageId, text));
    }

    @Override
    public void reasoning(String messageId, String text) {
        run.emit(new GraphEvent.Reasoning(tag, messageId, text));
    }

    @Override
    public void toolCallChunk(String messageId, int index, String callId, String name, String argsDelta) {
        run.emit(new GraphEvent.ToolCallChunk(tag, messageId, index, callId, name, argsDelta));
    }

    @Override
    public void childStarted(String childId, String kind, String name, Object input, String callId) {
        run.emit(new GraphEvent.ChildStarted(tag, childId, kind, name, input, callId));
    }

    @Override
    public void childEnded(String childId, String kind, String name, Object output, String error) {
        run.emit(new GraphEvent.ChildEnded(tag, childId, kind, name, output, error));
    }

    @Override
    public void custom(String name, Object payload) {
        run.emit(new GraphEvent.Custom(tag, name, payload));
    }

    @Override
    public <T> T interrupt(Object payload, Class<T> resumeType) {
        int k = interruptsCalled++;
        if (k < resumes.size()) {
            return resumes.get(k).decode(JsonCodec.of(resumeType));
        }
        throw new NodeInterrupt(List.of(new Interrupt(task.id() + "#" + k, payload, task.node(), task.id(), Interrupt.When.DURING)));
    }

    @Override
    public void forward(GraphEvent event) {
        run.emit(event);
    }

    // for subgraphs run inside this task

    @Override
    public java.util.Map<String, Object> configurable() {
        return run.configurable();
    }

    RunLoop run() {
        return run;
    }

    /** The newest resume value sent to this task, or null. */
    Stored latestResume() {
        return resumes.isEmpty() ? null : resumes.get(resumes.size() - 1);
    }

    /** How many interrupts this task has raised and had answered so far. */
    int answered() {
        return resumes.size();
    }

}
