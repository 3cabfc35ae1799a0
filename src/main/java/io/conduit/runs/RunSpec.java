package io.conduit.runs;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.runs.graphs.RunRequests;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a run was asked to do: the Agent Server's run request as the submission checked it, with the server's own
 * fields (the graph, the merged config, whether its thread is temporary). Stored and answered as the run's
 * {@code kwargs} ({@link RunSpecJson}).
 *
 * <p>A null field was not given (its default applies): the answer then leaves it out, as it did when the record was a
 * map. {@code input}, {@code command}, {@code context}, {@code checkpoint} and the interrupt lists stay JSON as given:
 * only the run's graph can decode them ({@link RunRequests}). {@code others} are the request's fields the server does
 * not read again, kept as given because clients read them back from {@code kwargs}.
 *
 * @param graphId         the graph the run executes ({@code graph_id})
 * @param streamModes     {@code stream_mode}, each once, in the order asked
 * @param config          {@code config}, its {@code configurable} merged with the assistant's and the {@code context}
 * @param checkpointId    {@code checkpoint_id}: the checkpoint to fork from
 * @param checkpoint      {@code checkpoint}: the same as an object ({@code checkpoint_id}, {@code checkpoint_ns})
 * @param temporary       a stateless run's thread, deleted after it
 */
public record RunSpec(String graphId, List<StreamMode> streamModes, JsonNode input, JsonNode command, Map<String, Object> config,
                      JsonNode context, String checkpointId, JsonNode checkpoint, JsonNode interruptBefore, JsonNode interruptAfter,
                      Durability durability, boolean temporary, OnCompletion onCompletion, Map<String, Object> others) {

    /** A spec with nothing given. */
    public static final RunSpec NONE = new RunSpec(null, null, null, null, null, null, null, null, null, null, null, false, null, Map.of());

    public RunSpec {
        streamModes = streamModes == null ? null : List.copyOf(streamModes);
        // JSON objects may hold nulls, which Map.copyOf refuses
        config = config == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(config));
        others = others == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(others));
    }

    /** {@code durability}: how the run's checkpoints are written. */
    public enum Durability {
        ASYNC, SYNC, EXIT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code on_completion}: what becomes of a stateless run's thread. */
    public enum OnCompletion {
        DELETE, KEEP;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The checkpoint a run forks from, and the field that named it (for the 404 that says it is not there). */
    public record Fork(String field, String checkpointId) {
    }

    /** The modes the run streams: those asked for, else {@code values}. */
    public List<StreamMode> modes() {
        return streamModes == null ? List.of(StreamMode.VALUES) : streamModes;
    }

    /** The graph's settings for the run ({@code config.configurable}); empty when none. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> configurable() {
        return config != null && config.get("configurable") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** {@code checkpoint_id}, else {@code checkpoint.checkpoint_id} (both checked to be strings); empty: the head. */
    public Optional<Fork> fork() {
        if (checkpointId != null) {
            return Optional.of(new Fork("checkpoint_id", checkpointId));
        }
        JsonNode id = checkpoint == null ? null : checkpoint.get("checkpoint_id");
        return id == null || !id.isTextual() ? Optional.empty() : Optional.of(new Fork("checkpoint.checkpoint_id", id.textValue()));
    }

    /** Whether the run's thread goes with it: a temporary thread, unless {@code on_completion=keep}. */
    public boolean deletesThread() {
        return temporary && onCompletion != OnCompletion.KEEP;
    }

    /** The spec as the server runs it: its graph, its config and whether its thread is temporary set by the server. */
    public RunSpec served(String graph, Map<String, Object> mergedConfig, boolean temporaryThread) {
        return new RunSpec(graph, streamModes, input, command, mergedConfig, context, checkpointId, checkpoint, interruptBefore,
                interruptAfter, durability, temporaryThread, onCompletion, others);
    }
}
