package io.conduit.graph;

import java.util.List;
import java.util.Map;

/**
 * Steers a run of a thread that already has checkpoints: {@code resume} answers pending interrupts, {@code update}
 * writes to the state first (as {@code asNode} would), {@code goTo} replaces the tasks that run next.
 *
 * @param resume     the value for every pending interrupt, or null
 * @param resumeById values by interrupt id, for a step where several tasks interrupted
 */
public record Command(Object resume, Map<String, Object> resumeById, Update update, List<String> goTo) {

    public static Command resume(Object value) {
        return new Command(value, Map.of(), null, List.of());
    }

    public static Command resumeById(Map<String, Object> values) {
        return new Command(null, Map.copyOf(values), null, List.of());
    }

    public static Command update(Update update) {
        return new Command(null, Map.of(), update, List.of());
    }

    public static Command goTo(String... nodes) {
        return new Command(null, Map.of(), null, List.of(nodes));
    }

    public Command withUpdate(Update u) {
        return new Command(resume, resumeById, u, goTo);
    }

    public Command withGoTo(String... nodes) {
        return new Command(resume, resumeById, update, List.of(nodes));
    }

    public boolean resumes() {
        return resume != null || !resumeById.isEmpty();
    }
}
