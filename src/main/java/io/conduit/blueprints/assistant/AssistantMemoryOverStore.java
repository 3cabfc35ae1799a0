package io.conduit.blueprints.assistant;

import io.conduit.store.Store;
import io.conduit.store.StoreItem;
import io.conduit.store.UserStore;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@link AssistantMemory} over the long-term store, in the user's own part of it ({@link UserStore}): memories in
 * namespace {@code ["memories"]} as {@code {"text": …}}, each sub-agent's skills in {@code ["skills", agent]}. A search
 * is the store's query (full-text search in Postgres) on the question's words of three letters or more.
 */
public final class AssistantMemoryOverStore implements AssistantMemory {

    static final List<String> MEMORIES = List.of("memories");
    private static final int ALL = 1000;

    private final Store store;

    public AssistantMemoryOverStore(Store store) {
        this.store = store;
    }

    @Override
    public Uni<List<Memory>> search(String userId, String query, int limit) {
        String words = String.join(" ", words(query));
        if (words.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return new UserStore(store, userId).search(MEMORIES, Map.of(), words, limit).map(items -> items.stream().map(AssistantMemoryOverStore::memory).toList());
    }

    @Override
    public Uni<List<Memory>> list(String userId, int limit) {
        return new UserStore(store, userId).search(MEMORIES, Map.of(), null, limit)
                .map(items -> items.stream().map(AssistantMemoryOverStore::memory).sorted(Comparator.comparing(Memory::key)).toList());
    }

    @Override
    public Uni<Memory> add(String userId, String key, String text) {
        String k = key == null || key.isBlank() ? keyOf(text) : key.strip();
        return new UserStore(store, userId).put(MEMORIES, k, Map.of("text", text), null).replaceWith(new Memory(k, text));
    }

    @Override
    public Uni<List<String>> skills(String userId, String agent) {
        return new UserStore(store, userId).search(List.of("skills", agent), Map.of(), null, ALL)
                .map(items -> items.stream().sorted(Comparator.comparing(StoreItem::key)).map(i -> String.valueOf(i.value().get("text"))).toList());
    }

    @Override
    public Uni<Void> addSkill(String userId, String agent, String key, String skill) {
        return new UserStore(store, userId).put(List.of("skills", agent), key, Map.of("text", skill), null);
    }

    private static Memory memory(StoreItem i) {
        return new Memory(i.key(), String.valueOf(i.value().get("text")));
    }

    /** A key from the text's first words: the same fact told twice lands under one key. */
    static String keyOf(String text) {
        List<String> w = new ArrayList<>();
        for (String s : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!s.isEmpty() && w.size() < 6) {
                w.add(s);
            }
        }
        String key = String.join("_", w);
        return key.isEmpty() ? "note" : key.length() > 80 ? key.substring(0, 80) : key;
    }

    /** The words of three letters or more: what a search looks for. */
    static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String s : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (s.length() >= 3) {
                out.add(s);
            }
        }
        return out;
    }
}
