package io.conduit.blueprints.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.persistence.PostgresStore;
import io.conduit.persistence.TestDatabase;
import io.conduit.store.InMemoryStore;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the assistant needs of its memory, for every implementation: {@link AssistantMemoryOverStore} over both
 * long-term stores (Postgres: the local test database, where other tests' items live too; users are fresh ids).
 */
class AssistantMemoryContractTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    static Stream<Named<Supplier<AssistantMemory>>> memories() {
        return Stream.of(
                Named.of("over the store, in memory", () -> new AssistantMemoryOverStore(new InMemoryStore(Clock.systemUTC()))),
                Named.of("over the store, postgres", () -> new AssistantMemoryOverStore(new PostgresStore(TestDatabase.pool(), Clock.systemUTC()))));
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(WAIT);
    }

    private static String user(String name) {
        return name + "-" + UUID.randomUUID();
    }

    @ParameterizedTest
    @MethodSource("memories")
    void oneUsersMemoriesAndSkillsAreNeverAnothers(Supplier<AssistantMemory> memories) {
        AssistantMemory m = memories.get();
        String ada = user("ada");
        String bob = user("bob");
        await(m.add(ada, "colour", "my favourite colour is green"));
        await(m.addSkill(ada, "researcher", "search_memory", "search first"));

        assertThat(await(m.search(bob, "favourite colour", 5))).isEmpty();
        assertThat(await(m.list(bob, 5))).isEmpty();
        assertThat(await(m.skills(bob, "researcher"))).isEmpty();
        assertThat(await(m.search(ada, "favourite colour", 5))).extracting(AssistantMemory.Memory::text).containsExactly("my favourite colour is green");
    }

    @ParameterizedTest
    @MethodSource("memories")
    void searchFindsMemoriesSharingWordsBestFirstWithinTheLimit(Supplier<AssistantMemory> memories) {
        AssistantMemory m = memories.get();
        String ada = user("ada");
        await(m.add(ada, "a", "lives in Kyoto"));
        await(m.add(ada, "b", "favourite colour is green"));
        await(m.add(ada, "c", "favourite food is ramen"));

        assertThat(await(m.search(ada, "What is my favourite colour?", 5))).extracting(AssistantMemory.Memory::key).containsExactly("b", "c");
        assertThat(await(m.search(ada, "What is my favourite colour?", 1))).extracting(AssistantMemory.Memory::key).containsExactly("b");
        assertThat(await(m.search(ada, "weather", 5))).isEmpty();
        assertThat(await(m.list(ada, 2))).hasSize(2);
    }

    @ParameterizedTest
    @MethodSource("memories")
    void aKeyReplacesItsMemoryAndWithoutOneTheTextMakesTheKey(Supplier<AssistantMemory> memories) {
        AssistantMemory m = memories.get();
        String ada = user("ada");
        await(m.add(ada, "city", "lives in Lyon"));
        await(m.add(ada, "city", "lives in Paris"));
        AssistantMemory.Memory told = await(m.add(ada, null, "Has two cats!"));
        await(m.add(ada, null, "has two cats"));

        assertThat(told.key()).isEqualTo("has_two_cats");
        assertThat(await(m.list(ada, 10))).extracting(AssistantMemory.Memory::text).containsExactly("lives in Paris", "has two cats");
    }

    @ParameterizedTest
    @MethodSource("memories")
    void skillsAreKeptPerSubAgentApartFromMemories(Supplier<AssistantMemory> memories) {
        AssistantMemory m = memories.get();
        String ada = user("ada");
        await(m.addSkill(ada, "researcher", "search_memory+get_current_time", "search, then look at the clock"));
        await(m.addSkill(ada, "researcher", "search_memory+get_current_time", "search, then look at the clock, then report"));
        await(m.addSkill(ada, "writer", "none", "write it short"));

        assertThat(await(m.skills(ada, "researcher"))).containsExactly("search, then look at the clock, then report");
        assertThat(await(m.skills(ada, "writer"))).containsExactly("write it short");
        assertThat(await(m.list(ada, 10))).isEmpty();
        assertThat(await(m.search(ada, "search clock", 10))).isEmpty();
    }
}
