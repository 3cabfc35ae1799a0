package io.conduit.runs;

import static io.conduit.runs.RunStoreContractTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The behaviour every {@link AssistantStore} must share; runs against each store of {@link RunStores#assistants()}. */
class AssistantStoreContractTest {

    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void createStoresVersionOne(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant given = assistant("agent", "Tutor", Map.of("team", "math"), 0, 7);
        Assistant created = await(store.create(given, false));
        Assistant expected = new Assistant(given.assistantId(), "agent", "Tutor", "helps", given.config(), given.context(),
                Map.of("team", "math"), 1, T0, T0);
        assertThat(created).isEqualTo(expected);
        assertThat(await(store.get(given.assistantId()))).contains(expected);
        assertThat(await(store.get(id()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void createAnExistingAssistantRaisesOrReturnsIt(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant first = await(store.create(assistant("agent", "One", null, 0, 1), false));
        Assistant again = new Assistant(first.assistantId(), "other", "Two", null, null, null, null, 1, T0, T0);
        assertThatThrownBy(() -> await(store.create(again, false))).isInstanceOf(AssistantExistsException.class);
        assertThat(await(store.create(again, true))).isEqualTo(first);
        assertThat(await(store.versions(first.assistantId(), 10, 0))).hasSize(1);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void updateMakesANewLatestVersion(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant v1 = await(store.create(assistant("agent", "Tutor", Map.of("a", 1), 0, 1), false));
        Assistant v2 = await(store.update(v1.assistantId(), a -> rename(a, "Tutor 2", T0.plusSeconds(1)))).orElseThrow();
        assertThat(v2.version()).isEqualTo(2);
        assertThat(v2.name()).isEqualTo("Tutor 2");
        assertThat(v2.updatedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(v2.config()).isEqualTo(v1.config());
        assertThat(await(store.get(v1.assistantId()))).contains(v2);
        Assistant v3 = await(store.update(v1.assistantId(), a -> rename(a, "Tutor 3", T0.plusSeconds(2)))).orElseThrow();
        assertThat(v3.version()).isEqualTo(3);

        assertThat(await(store.versions(v1.assistantId(), 10, 0))).containsExactly(v3, v2, v1);
        assertThat(await(store.versions(v1.assistantId(), 1, 1))).containsExactly(v2);
        assertThat(await(store.versions(id(), 10, 0))).isEmpty();
        assertThat(await(store.update(id(), a -> a))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void concurrentUpdatesEachGetTheirOwnVersion(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant v1 = await(store.create(assistant("agent", "Tutor", null, 0, 1), false));
        List<CompletableFuture<java.util.Optional<Assistant>>> updates = IntStream.range(0, 6)
                .mapToObj(i -> store.update(v1.assistantId(), a -> rename(a, "n" + i, T0.plusSeconds(1))).subscribeAsCompletionStage())
                .toList();
        List<Integer> versions = updates.stream().map(CompletableFuture::join).map(o -> o.orElseThrow().version()).sorted().toList();
        assertThat(versions).containsExactly(2, 3, 4, 5, 6, 7);
        assertThat(await(store.get(v1.assistantId())).orElseThrow().version()).isEqualTo(7);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void setLatestMakesAnOldVersionCurrent(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant v1 = await(store.create(assistant("agent", "Tutor", null, 0, 1), false));
        await(store.update(v1.assistantId(), a -> rename(a, "Tutor 2", T0.plusSeconds(1))));
        assertThat(await(store.setLatest(v1.assistantId(), 1))).contains(v1);
        assertThat(await(store.get(v1.assistantId()))).contains(v1);
        assertThat(await(store.setLatest(v1.assistantId(), 9))).isEmpty();
        assertThat(await(store.setLatest(id(), 1))).isEmpty();
        assertThat(await(store.get(v1.assistantId()))).contains(v1);
        // search sees the latest version only
        assertThat(await(store.search(null, "Tutor 2", null, 10, 0, null, null))).isEmpty();
        assertThat(await(store.search(null, "Tutor", null, 10, 0, null, null))).containsExactly(v1);
        // a further update numbers past the highest version, not past the latest
        assertThat(await(store.update(v1.assistantId(), a -> rename(a, "Tutor 3", T0.plusSeconds(2)))).orElseThrow().version()).isEqualTo(3);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void searchAndCount(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant a = await(store.create(assistant("agent", "Alpha", Map.of("team", "math", "cfg", Map.of("level", 2)), 0, 1), false));
        Assistant b = await(store.create(assistant("agent", "Beta", Map.of("team", "math"), 1, 1), false));
        Assistant c = await(store.create(assistant("planner", "Gamma", Map.of("team", "art"), 2, 1), false));

        assertThat(await(store.search(null, null, null, 10, 0, null, null))).containsExactly(c, b, a);
        assertThat(await(store.search(null, null, null, 10, 0, "created_at", "asc"))).containsExactly(a, b, c);
        assertThat(await(store.search(null, null, null, 2, 1, "name", "desc"))).containsExactly(b, a);
        assertThat(await(store.search("agent", null, null, 10, 0, "name", "asc"))).containsExactly(a, b);
        assertThat(await(store.search(null, "Beta", null, 10, 0, null, null))).containsExactly(b);
        assertThat(await(store.search(null, null, Map.of("team", "math"), 10, 0, "graph_id", "asc"))).containsExactlyInAnyOrder(a, b);
        assertThat(await(store.search(null, null, Map.of("cfg", Map.of("level", 2)), 10, 0, null, null))).containsExactly(a);
        assertThat(await(store.search("planner", null, Map.of("team", "math"), 10, 0, null, null))).isEmpty();
        assertThatThrownBy(() -> await(store.search(null, null, null, 10, 0, "config", "asc"))).isInstanceOf(IllegalArgumentException.class);

        assertThat(await(store.count(null, null, null))).isEqualTo(3);
        assertThat(await(store.count("agent", null, null))).isEqualTo(2);
        assertThat(await(store.count(null, null, Map.of("team", "art")))).isEqualTo(1);
        assertThat(await(store.count("agent", "Gamma", null))).isZero();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void deleteRemovesEveryVersion(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant v1 = await(store.create(assistant("agent", "Tutor", null, 0, 1), false));
        await(store.update(v1.assistantId(), a -> rename(a, "Tutor 2", T0.plusSeconds(1))));
        Assistant other = await(store.create(assistant("agent", "Other", null, 1, 1), false));
        assertThat(await(store.delete(v1.assistantId()))).isTrue();
        assertThat(await(store.delete(v1.assistantId()))).isFalse();
        assertThat(await(store.get(v1.assistantId()))).isEmpty();
        assertThat(await(store.versions(v1.assistantId(), 10, 0))).isEmpty();
        assertThat(await(store.get(other.assistantId()))).contains(other);
        // the id can be used again, from version 1
        assertThat(await(store.create(assistant(v1.assistantId(), "agent", "New"), false)).version()).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#assistants")
    void unstorableTextIsRefusedAndNothingIsWritten(Supplier<AssistantStore> stores) {
        AssistantStore store = stores.get();
        Assistant kept = await(store.create(assistant("agent", "Kept", Map.of("a", 1), 0, 1), false));
        for (Map<String, Object> bad : RunStoreContractTest.UNSTORABLE) {
            List<Assistant> refused = new java.util.ArrayList<>(List.of(
                    new Assistant(id(), "agent", "A", null, bad, null, null, 1, T0, T0),
                    new Assistant(id(), "agent", "A", null, null, bad, null, 1, T0, T0),
                    new Assistant(id(), "agent", "A", null, null, null, bad, 1, T0, T0)));
            if (bad.get("note") instanceof String text) { // the same text as a name, and as a description
                refused.add(new Assistant(id(), "agent", text, null, null, null, null, 1, T0, T0));
                refused.add(new Assistant(id(), "agent", "A", text, null, null, null, 1, T0, T0));
            }
            for (Assistant a : refused) {
                assertThatThrownBy(() -> await(store.create(a, false))).isInstanceOf(InvalidInputException.class);
                assertThat(await(store.get(a.assistantId()))).isEmpty();
                assertThatThrownBy(() -> await(store.update(kept.assistantId(), k -> new Assistant(k.assistantId(), k.graphId(), a.name(),
                        a.description(), a.config(), a.context(), a.metadata(), k.version(), k.createdAt(), T0.plusSeconds(1)))))
                        .isInstanceOf(InvalidInputException.class);
            }
            assertThatThrownBy(() -> await(store.search(null, null, bad, 10, 0, "created_at", "desc"))).isInstanceOf(InvalidInputException.class);
        }
        assertThat(await(store.get(kept.assistantId()))).contains(kept);
        assertThat(await(store.versions(kept.assistantId(), 10, 0))).hasSize(1);
        Assistant odd = await(store.create(new Assistant(id(), "agent", "odd \u0007 \ud83d\ude00", "\ufffd", RunStoreContractTest.ODD,
                RunStoreContractTest.ODD, RunStoreContractTest.ODD, 1, T0, T0), false));
        assertThat(await(store.get(odd.assistantId()))).contains(odd);
        assertThat(odd.metadata()).isEqualTo(RunStoreContractTest.ODD);
        assertThat(odd.name()).isEqualTo("odd \u0007 \ud83d\ude00");
    }

    private static Assistant assistant(String graph, String name, Map<String, Object> metadata, int second, int ignoredVersion) {
        Instant at = T0.plusSeconds(second);
        return new Assistant(id(), graph, name, "helps", Map.of("configurable", Map.of("model", "m", "temperature", 0.5)),
                Map.of("lang", "fr"), metadata, ignoredVersion, at, at);
    }

    private static Assistant assistant(String id, String graph, String name) {
        return new Assistant(id, graph, name, null, null, null, null, 0, T0, T0);
    }

    private static Assistant rename(Assistant a, String name, Instant at) {
        return new Assistant(a.assistantId(), a.graphId(), name, a.description(), a.config(), a.context(), a.metadata(), a.version(),
                a.createdAt(), at);
    }

    private static String id() {
        return UUID.randomUUID().toString();
    }
}
