package io.conduit.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A task read whole, for {@code message/send} and {@code tasks/get}: the run's A2A frames ({@link A2aEvents}) are
 * kept as they come (the log's own frames, nothing made on the run's thread) and, once the run's events end, made
 * into one Task on the request's context: the last status, and each artifact with its text joined.
 */
final class TaskAnswer implements RunEventListener {

    private final Context context;
    private final Consumer<ObjectNode> onEnd;
    private final List<RunEvent> frames = new ArrayList<>();

    TaskAnswer(Context context, Consumer<ObjectNode> onEnd) {
        this.context = context;
        this.onEnd = onEnd;
    }

    @Override
    public void onEvent(RunEvent e) {
        frames.add(e);
    }

    @Override
    public void onEnd() {
        context.runOnContext(v -> onEnd.accept(task(frames)));
    }

    /** The task the frames make, read up to the final status update. */
    static ObjectNode task(List<RunEvent> frames) {
        ObjectNode task = null;
        Map<String, ObjectNode> artifacts = new LinkedHashMap<>();
        for (RunEvent f : frames) {
            JsonNode result = read(f.data());
            switch (result.path("kind").asText()) {
                case "task" -> task = (ObjectNode) result;
                case "artifact-update" -> artifact(artifacts, result.get("artifact"), result.path("append").asBoolean());
                case "status-update" -> {
                    if (task == null) {
                        task = A2aJson.task(result.path("taskId").asText(), result.path("contextId").asText(), null);
                    }
                    task.set("status", result.get("status"));
                }
                default -> {
                }
            }
        }
        if (task == null) {
            throw new IllegalStateException("the run said nothing"); // not reached: A2aStreamEnd writes an end
        }
        ArrayNode list = task.putArray("artifacts");
        artifacts.values().forEach(list::add);
        return task;
    }

    private static void artifact(Map<String, ObjectNode> artifacts, JsonNode a, boolean append) {
        String id = a.path("artifactId").asText();
        ObjectNode kept = artifacts.get(id);
        String text = a.path("parts").path(0).path("text").asText();
        if (kept == null || !append) {
            artifacts.put(id, A2aJson.artifact(id, text));
            return;
        }
        ObjectNode part = (ObjectNode) kept.get("parts").get(0);
        part.put("text", part.get("text").asText() + text);
    }

    private static JsonNode read(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a frame of the a2a format is not JSON", e); // not reached: A2aEvents writes them
        }
    }
}
