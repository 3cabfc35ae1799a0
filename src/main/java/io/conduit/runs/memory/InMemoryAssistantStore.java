package io.conduit.runs.memory;

import io.conduit.runs.Assistant;
import io.conduit.runs.AssistantExistsException;
import io.conduit.runs.AssistantStore;
import io.conduit.runs.InputText;
import io.conduit.runs.JsonMaps;
import io.conduit.runs.SortOrder;
import io.smallrye.mutiny.Uni;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** Assistants and their versions in this JVM (the memory store of the service). Every access holds the store's lock. */
public final class InMemoryAssistantStore implements AssistantStore {


    /** One assistant: its versions by number, and which one is latest. */
    private static final class Entry {
        final TreeMap<Integer, Assistant> versions = new TreeMap<>();
        int latest;

        Assistant latest() {
            return versions.get(latest);
        }
    }

    private final Map<String, Entry> assistants = new HashMap<>();

    /** The record as stored: JSON maps copied, id and version as the store says. */
    private static Assistant stored(Assistant a, String assistantId, int version) {
        return new Assistant(assistantId, InputText.storable("graph_id", a.graphId()), InputText.storable("name", a.name()),
                InputText.storable("description", a.description()), JsonMaps.copy(a.config()), JsonMaps.copy(a.context()),
                JsonMaps.copy(a.metadata()), version, a.createdAt(), a.updatedAt() == null ? a.createdAt() : a.updatedAt());
    }

    @Override
    public Uni<Assistant> create(Assistant assistant, boolean doNothingIfExists) {
        Objects.requireNonNull(assistant.assistantId(), "assistantId");
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Entry existing = assistants.get(assistant.assistantId());
                if (existing != null) {
                    if (doNothingIfExists) {
                        return existing.latest();
                    }
                    throw new AssistantExistsException(assistant.assistantId());
                }
                Entry e = new Entry();
                e.versions.put(1, stored(assistant, assistant.assistantId(), 1));
                e.latest = 1;
                assistants.put(assistant.assistantId(), e);
                return e.latest();
            }
        });
    }

    @Override
    public Uni<Optional<Assistant>> get(String assistantId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return Optional.ofNullable(assistants.get(assistantId)).map(Entry::latest);
            }
        });
    }

    @Override
    public Uni<Optional<Assistant>> update(String assistantId, UnaryOperator<Assistant> change) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Entry e = assistants.get(assistantId);
                if (e == null) {
                    return Optional.empty();
                }
                int version = e.versions.lastKey() + 1;
                e.versions.put(version, stored(change.apply(e.latest()), assistantId, version));
                e.latest = version;
                return Optional.of(e.latest());
            }
        });
    }

    @Override
    public Uni<List<Assistant>> versions(String assistantId, int limit, int offset) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Entry e = assistants.get(assistantId);
                return e == null ? List.of() : e.versions.descendingMap().values().stream().skip(offset).limit(limit).toList();
            }
        });
    }

    @Override
    public Uni<Optional<Assistant>> setLatest(String assistantId, int version) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Entry e = assistants.get(assistantId);
                if (e == null || !e.versions.containsKey(version)) {
                    return Optional.empty();
                }
                e.latest = version;
                return Optional.of(e.latest());
            }
        });
    }

    @Override
    public Uni<List<Assistant>> search(String graphId, String name, Map<String, Object> metadata, int limit, int offset, String sortBy, String sortOrder) {
        return Uni.createFrom().item(() -> {
            SortOrder sort = SortOrder.of(sortBy, sortOrder, SORTS);
            synchronized (this) {
                return latestMatching(graphId, name, metadata).sorted(sort.apply(comparator(sort.column())))
                        .skip(offset).limit(limit).toList();
            }
        });
    }

    @Override
    public Uni<Long> count(String graphId, String name, Map<String, Object> metadata) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return latestMatching(graphId, name, metadata).count();
            }
        });
    }

    private Stream<Assistant> latestMatching(String graphId, String name, Map<String, Object> metadata) {
        Map<String, Object> filter = JsonMaps.copy(metadata);
        return assistants.values().stream().map(Entry::latest)
                .filter(a -> graphId == null || graphId.equals(a.graphId()))
                .filter(a -> name == null || name.equals(a.name()))
                .filter(a -> JsonContainment.matches(a.metadata(), filter));
    }

    /** Graph ids and names may be null: last ascending, first descending, as Postgres sorts them. */
    private static Comparator<Assistant> comparator(String column) {
        Comparator<String> text = Comparator.nullsLast(Comparator.naturalOrder());
        Comparator<Assistant> byColumn = switch (column) {
            case "assistant_id" -> Comparator.comparing(Assistant::assistantId);
            case "graph_id" -> Comparator.comparing(Assistant::graphId, text);
            case "name" -> Comparator.comparing(Assistant::name, text);
            case "updated_at" -> Comparator.comparing(Assistant::updatedAt);
            default -> Comparator.comparing(Assistant::createdAt);
        };
        return byColumn.thenComparing(Assistant::assistantId);
    }

    @Override
    public Uni<Boolean> delete(String assistantId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return assistants.remove(assistantId) != null;
            }
        });
    }
}
