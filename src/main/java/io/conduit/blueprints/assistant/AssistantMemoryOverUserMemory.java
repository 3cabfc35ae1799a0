package io.conduit.blueprints.assistant;

import io.conduit.agent.port.UserMemory;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@link AssistantMemory} over the service's key-value {@link UserMemory} (in memory or Postgres, per user): memories
 * under {@code memory:<key>}, skills under {@code skill:<agent>:<key>}, beside the default assistant's own keys.
 * Relevance is the number of words (three letters or more) a memory shares with the query. This class is the one to
 * replace when the long-term store (namespaces, full-text search) takes over: namespaces {@code [user, "memories"]}
 * and {@code [user, "skills", agent]}.
 */
public final class AssistantMemoryOverUserMemory implements AssistantMemory {

    static final String MEMORY = "memory:";
    static final String SKILL = "skill:";

    private final UserMemory memory;

    public AssistantMemoryOverUserMemory(UserMemory memory) {
        this.memory = memory;
    }

    @Override
    public Uni<List<Memory>> search(String userId, String query, int limit) {
        Set<String> wanted = words(query);
        return memories(userId).map(all -> {
            List<Scored> scored = new ArrayList<>();
            for (Memory m : all) {
                int score = overlap(wanted, words(m.key() + " " + m.text()));
                if (score > 0) {
                    scored.add(new Scored(m, score));
                }
            }
            scored.sort(Comparator.comparingInt(Scored::score).reversed()); // stable: ties keep key order
            return scored.stream().limit(limit).map(Scored::memory).toList();
        });
    }

    @Override
    public Uni<List<Memory>> list(String userId, int limit) {
        return memories(userId).map(all -> all.stream().limit(limit).toList());
    }

    @Override
    public Uni<Memory> add(String userId, String key, String text) {
        String k = key == null || key.isBlank() ? keyOf(text) : key.strip();
        return memory.put(userId, MEMORY + k, text).replaceWith(new Memory(k, text));
    }

    @Override
    public Uni<List<String>> skills(String userId, String agent) {
        String prefix = SKILL + agent + ":";
        return memory.all(userId).map(all -> all.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .map(Map.Entry::getValue).toList());
    }

    @Override
    public Uni<Void> addSkill(String userId, String agent, String key, String skill) {
        return memory.put(userId, SKILL + agent + ":" + key, skill);
    }

    private Uni<List<Memory>> memories(String userId) {
        return memory.all(userId).map(all -> all.entrySet().stream().filter(e -> e.getKey().startsWith(MEMORY))
                .map(e -> new Memory(e.getKey().substring(MEMORY.length()), e.getValue())).toList());
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

    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String s : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (s.length() >= 3) {
                out.add(s);
            }
        }
        return out;
    }

    private static int overlap(Set<String> a, Set<String> b) {
        int n = 0;
        for (String s : a) {
            if (b.contains(s)) {
                n++;
            }
        }
        return n;
    }

    private record Scored(Memory memory, int score) {
    }
}
