package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Assistants and their versions. Metadata filters match by JSON containment. */
public interface AssistantStore {

    /** The columns a search sorts by. */
    Set<String> SORTS = Set.of("assistant_id", "graph_id", "name", "created_at", "updated_at");

    /** Stores version 1 of a new assistant; when it exists: returns it if {@code doNothingIfExists}, else fails (AssistantExistsException). */
    Uni<Assistant> create(Assistant assistant, boolean doNothingIfExists);

    /** The latest version. */
    Uni<Optional<Assistant>> get(String assistantId);

    /** Stores {@code next} as a new version (its number is assigned: one past the highest) and makes it latest. */
    Uni<Optional<Assistant>> update(String assistantId, java.util.function.UnaryOperator<Assistant> change);

    Uni<List<Assistant>> versions(String assistantId, int limit, int offset);

    /** Makes an existing version the latest; empty when there is no such version. */
    Uni<Optional<Assistant>> setLatest(String assistantId, int version);

    /** Latest versions; any null filter matches all. {@code sortBy}: assistant_id, graph_id, name, created_at, updated_at. */
    Uni<List<Assistant>> search(String graphId, String name, Map<String, Object> metadata, int limit, int offset, String sortBy, String sortOrder);

    Uni<Long> count(String graphId, String name, Map<String, Object> metadata);

    Uni<Boolean> delete(String assistantId);
}
