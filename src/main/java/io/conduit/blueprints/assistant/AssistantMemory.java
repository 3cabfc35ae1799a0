package io.conduit.blueprints.assistant;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * What the assistant keeps about a user across threads, and only what it needs: semantic memories (facts, searched
 * by relevance to a query) and procedural skills of each sub-agent. Every call names the run's user; nothing here
 * can reach another user's items. {@link AssistantMemoryOverStore} keeps it in the long-term store.
 */
public interface AssistantMemory {

    /** A remembered fact: its key (which {@link #add} may replace) and its text. */
    record Memory(String key, String text) {
    }

    /** The user's memories that share words with {@code query}, best first, at most {@code limit}. */
    Uni<List<Memory>> search(String userId, String query, int limit);

    /** Any of the user's memories, at most {@code limit} (to fill a prompt when the search finds few). */
    Uni<List<Memory>> list(String userId, int limit);

    /** Keeps a fact; under an existing key it replaces that one. A null key makes one from the text. */
    Uni<Memory> add(String userId, String key, String text);

    /** The procedures a sub-agent learned for this user. */
    Uni<List<String>> skills(String userId, String agent);

    /** Keeps a procedure a sub-agent learned; one per key. */
    Uni<Void> addSkill(String userId, String agent, String key, String skill);
}
