package io.conduit.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The behaviour every {@link Checkpointer} must share. Runs against each store of {@link Stores#all()}; every test
 * uses fresh random thread ids, because the Postgres store shares its tables across tests. Values are compared
 * decoded, or as JSON trees, never as text: a database may reorder keys and whitespace.
 */
class CheckpointerContractTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    public record Note(String text, int n, List<String> tags) {
    }

    private static final JsonCodec<Note> NOTE = JsonCodec.of(Note.class);
    private static final JsonCodec<Integer> INT = JsonCodec.of(Integer.class);

    // ---- put, head, get

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void putThenHeadAndGetReturnEveryField(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint first = cp(thread, "", null, -1);
        await(store.put(first, null));

        Note note = new Note("héllo \"world\"", 7, List.of("a", "b"));
        Map<String, Stored> values = new LinkedHashMap<>();
        values.put("note", Stored.live(note, NOTE));
        values.put("count", Stored.json("{ \"z\": 1,   \"a\": [1, 2, {\"k\": null}] }"));
        values.put("text", Stored.json("\"plain\""));
        Map<String, Stored> deltas = Map.of("messages", Stored.json("[{\"id\":\"m1\",\"text\":\"hi\"},{\"id\":\"m2\",\"text\":\"there\"}]"));
        List<TaskSpec> next = List.of(TaskSpec.of("plain"), new TaskSpec("fanout", Stored.live(new Note("input", 3, List.of()), NOTE)));
        Map<String, String> metadata = Map.of("user", "ünï \"quoted\" | x", "source", "test");
        String runId = TimeOrderedIds.next();
        String secondId = TimeOrderedIds.next();
        // the creation time is the one the UUIDv7 id carries: stores may keep only the id
        long created = TimeOrderedIds.millisOf(secondId);
        Checkpoint second = new Checkpoint(thread, "", secondId, first.id(), 0, CheckpointSource.LOOP, runId, values, deltas,
                next, metadata, created, 2);
        await(store.put(second, first.id()));

        Head head = await(store.head(thread, "")).orElseThrow();
        assertSameCheckpoint(head.checkpoint(), second);
        assertThat(head.pendingWrites()).isEmpty();
        assertThat(head.checkpoint().values().get("note").decode(NOTE)).isEqualTo(note);
        assertThat(head.checkpoint().next().get(1).input().decode(NOTE)).isEqualTo(new Note("input", 3, List.of()));
        assertThat(head.checkpoint().next().get(0).input()).isNull();

        assertSameCheckpoint(await(store.get(thread, "", second.id())).orElseThrow().checkpoint(), second);
        assertSameCheckpoint(await(store.get(thread, "", first.id())).orElseThrow().checkpoint(), first);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aMinimalCheckpointRoundTrips(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        String id = TimeOrderedIds.next();
        Checkpoint cp = new Checkpoint(thread, "", id, null, -1, CheckpointSource.INPUT, null, Map.of(), Map.of(), List.of(),
                Map.of(), TimeOrderedIds.millisOf(id), 1);
        await(store.put(cp, null));

        Checkpoint read = await(store.head(thread, "")).orElseThrow().checkpoint();
        assertSameCheckpoint(read, cp);
        assertThat(read.runId()).isNull();
        assertThat(read.parentId()).isNull();
        assertThat(read.values()).isEmpty();
        assertThat(read.deltas()).isEmpty();
        assertThat(read.next()).isEmpty();
        assertThat(read.metadata()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void everySourceReadsBackAsWritten(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint parent = null;
        for (CheckpointSource source : CheckpointSource.values()) {
            Checkpoint c = cp(thread, "", parent, parent == null ? -1 : parent.step() + 1);
            c = new Checkpoint(c.threadId(), c.ns(), c.id(), c.parentId(), c.step(), source, c.runId(), c.values(), c.deltas(),
                    c.next(), c.metadata(), c.createdAtMillis(), c.chainLength());
            await(store.put(c, parent == null ? null : parent.id()));
            assertThat(await(store.get(thread, "", c.id())).orElseThrow().checkpoint().source()).isEqualTo(source);
            parent = c;
        }
        assertThat(await(store.list(thread, "", 10, null))).extracting(Checkpoint::source)
                .containsExactlyElementsOf(List.of(CheckpointSource.values()).reversed());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void unknownThreadsAndCheckpointsAreEmpty(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String unknown = thread();
        assertThat(await(store.head(unknown, ""))).isEmpty();
        assertThat(await(store.get(unknown, "", TimeOrderedIds.next()))).isEmpty();
        assertThat(await(store.chain(unknown, "", TimeOrderedIds.next()))).isEmpty();
        assertThat(await(store.list(unknown, "", 10, null))).isEmpty();

        String thread = thread();
        Checkpoint cp = cp(thread, "", null, -1);
        await(store.put(cp, null));
        assertThat(await(store.get(thread, "", TimeOrderedIds.next()))).isEmpty();
        assertThat(await(store.chain(thread, "", TimeOrderedIds.next()))).isEmpty();
        // the checkpoint exists, but in another namespace and another thread
        assertThat(await(store.get(thread, "sub:x", cp.id()))).isEmpty();
        assertThat(await(store.head(thread, "sub:x"))).isEmpty();
        assertThat(await(store.get(unknown, "", cp.id()))).isEmpty();
        assertThat(await(store.chain(unknown, "", cp.id()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aCheckpointIdThatIsNoUuidIsNotFoundRatherThanAnError(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        await(store.put(cp(thread, "", null, -1), null));
        assertThat(await(store.get(thread, "", "not-a-uuid"))).isEmpty();
        assertThat(await(store.get(thread, "", "'; DROP TABLE x; --"))).isEmpty();
        assertThat(await(store.get(thread, "", ""))).isEmpty();
        assertThat(await(store.chain(thread, "", "not-a-uuid"))).isEmpty();
        assertThat(await(store.get(thread(), "", "not-a-uuid"))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void putAdvancesTheHead(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint cp1 = cp(thread, "", null, -1);
        await(store.put(cp1, null));
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(cp1.id());

        Checkpoint cp2 = cp(thread, "", cp1, 0);
        await(store.put(cp2, cp1.id()));
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(cp2.id());

        Checkpoint cp3 = cp(thread, "", cp2, 1);
        await(store.put(cp3, cp2.id()));
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(cp3.id());
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactly(cp3.id(), cp2.id(), cp1.id());
    }

    // ---- conflicts

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aStaleExpectedHeadConflictsAndStoresNothing(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint cp1 = cp(thread, "", null, -1);
        Checkpoint cp2 = cp(thread, "", cp1, 0);
        await(store.put(cp1, null));
        await(store.put(cp2, cp1.id()));

        Checkpoint stale = cp(thread, "", cp1, 0);
        assertThatThrownBy(() -> await(store.put(stale, cp1.id())))
                .isInstanceOf(CheckpointConflictException.class)
                .satisfies(e -> assertThat(((CheckpointConflictException) e).threadId()).isEqualTo(thread));

        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(cp2.id());
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactly(cp2.id(), cp1.id());
        assertThat(await(store.get(thread, "", stale.id()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void startingANamespaceThatAlreadyHasAHeadConflicts(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint cp1 = cp(thread, "", null, -1);
        await(store.put(cp1, null));

        Checkpoint other = cp(thread, "", null, -1);
        assertThatThrownBy(() -> await(store.put(other, null))).isInstanceOf(CheckpointConflictException.class);

        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(cp1.id());
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactly(cp1.id());
        assertThat(await(store.get(thread, "", other.id()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void expectingAHeadOfANamespaceThatHasNoneConflicts(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint cp = cp(thread, "", null, -1);
        assertThatThrownBy(() -> await(store.put(cp, TimeOrderedIds.next()))).isInstanceOf(CheckpointConflictException.class);
        assertThat(await(store.head(thread, ""))).isEmpty();
        assertThat(await(store.list(thread, "", 10, null))).isEmpty();
        assertThat(await(store.get(thread, "", cp.id()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void ofConcurrentPutsFromTheSameParentExactlyOneSucceeds(Supplier<Checkpointer> stores) throws Exception {
        Checkpointer store = stores.get();
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 5; round++) {
                String thread = thread();
                Checkpoint parent = cp(thread, "", null, -1);
                await(store.put(parent, null));
                CyclicBarrier start = new CyclicBarrier(writers);
                List<Checkpoint> attempts = new ArrayList<>();
                List<Future<Throwable>> outcomes = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    Checkpoint child = cp(thread, "", parent, 0);
                    attempts.add(child);
                    outcomes.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            await(store.put(child, parent.id()));
                            return null;
                        } catch (Throwable t) {
                            return t;
                        }
                    }));
                }
                List<Checkpoint> winners = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    Throwable failure = outcomes.get(i).get(10, TimeUnit.SECONDS);
                    if (failure == null) {
                        winners.add(attempts.get(i));
                    } else {
                        assertThat(failure).isInstanceOf(CheckpointConflictException.class);
                    }
                }
                assertThat(winners).hasSize(1);
                assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(winners.get(0).id());
                assertThat(ids(await(store.list(thread, "", 100, null)))).containsExactly(winners.get(0).id(), parent.id());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void concurrentPutsOfManyThreadsEachGetTheirOwnOutcome(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        int threads = 48;
        List<Checkpoint> parents = new ArrayList<>();
        for (int i = 0; i < threads / 2; i++) { // half the threads have a head, the other half start now
            Checkpoint parent = cp(thread(), "", null, -1);
            await(store.put(parent, null));
            parents.add(parent);
        }
        int conflicting = threads / 4; // expects a head its thread does not have
        List<Checkpoint> puts = new ArrayList<>();
        List<Uni<Throwable>> outcomes = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Checkpoint parent = i < parents.size() ? parents.get(i) : null;
            Checkpoint c = parent == null ? cp(thread(), "", null, -1) : cp(parent.threadId(), "", parent, 0);
            String expected = i == conflicting ? TimeOrderedIds.next() : parent == null ? null : parent.id();
            puts.add(c);
            // all made before any is awaited, so that they are in flight together
            outcomes.add(store.put(c, expected).onItem().transform(v -> (Throwable) null).onFailure().recoverWithItem(t -> t));
        }
        List<Throwable> failures = await(Uni.join().all(outcomes).andFailFast());

        for (int i = 0; i < threads; i++) {
            Checkpoint c = puts.get(i);
            String head = await(store.head(c.threadId(), "")).orElseThrow().checkpoint().id();
            if (i == conflicting) {
                assertThat(failures.get(i)).isInstanceOf(CheckpointConflictException.class);
                assertThat(head).isEqualTo(parents.get(i).id());
                assertThat(await(store.get(c.threadId(), "", c.id()))).isEmpty();
            } else {
                assertThat(failures.get(i)).as("put %d", i).isNull();
                assertThat(head).isEqualTo(c.id());
                assertSameCheckpoint(await(store.get(c.threadId(), "", c.id())).orElseThrow().checkpoint(), c);
            }
        }
    }

    // ---- list

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void listIsNewestFirstWithLimitAndExclusiveBefore(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 6);
        List<String> newestFirst = ids(line).reversed();

        assertThat(ids(await(store.list(thread, "", 100, null)))).containsExactlyElementsOf(newestFirst);
        assertThat(ids(await(store.list(thread, "", 2, null)))).containsExactly(newestFirst.get(0), newestFirst.get(1));
        assertThat(await(store.list(thread, "", 0, null))).isEmpty();
        // before is exclusive
        assertThat(ids(await(store.list(thread, "", 100, line.get(3).id()))))
                .containsExactly(line.get(2).id(), line.get(1).id(), line.get(0).id());
        assertThat(ids(await(store.list(thread, "", 2, line.get(3).id())))).containsExactly(line.get(2).id(), line.get(1).id());
        assertThat(await(store.list(thread, "", 100, line.get(0).id()))).isEmpty();
        assertThat(await(store.list(thread(), "", 100, null))).isEmpty();

        // what list returns is complete, not just ids
        assertSameCheckpoint(await(store.list(thread, "", 1, null)).get(0), line.get(5));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void checkpointIdsSortLexicographicallyInCreationOrder(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 30);
        List<String> created = ids(line);
        assertThat(created).isSorted().doesNotHaveDuplicates();
        List<String> listed = ids(await(store.list(thread, "", 100, null)));
        assertThat(listed).isSortedAccordingTo(Comparator.reverseOrder()).containsExactlyElementsOf(created.reversed());
        assertThat(created).allSatisfy(id -> assertThat(UUID.fromString(id).version()).isEqualTo(7));
    }

    // ---- pending writes

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void pendingWritesBelongToTheirCheckpointOnly(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 2);
        Checkpoint cp1 = line.get(0);
        Checkpoint cp2 = line.get(1);

        PendingWrite onFirst = new PendingWrite("task-1", "a", 0, "count", Stored.live(5, INT));
        PendingWrite onHead = new PendingWrite("task-2", "b", 0, "note", Stored.live(new Note("w", 1, List.of("x")), NOTE));
        await(store.putWrites(thread, "", cp1.id(), List.of(onFirst)));
        await(store.putWrites(thread, "", cp2.id(), List.of(onHead)));

        assertSameWrites(await(store.head(thread, "")).orElseThrow().pendingWrites(), List.of(onHead));
        assertSameWrites(await(store.get(thread, "", cp2.id())).orElseThrow().pendingWrites(), List.of(onHead));
        assertSameWrites(await(store.get(thread, "", cp1.id())).orElseThrow().pendingWrites(), List.of(onFirst));
        assertThat(await(store.head(thread, "")).orElseThrow().pendingWrites().get(0).value().decode(NOTE))
                .isEqualTo(new Note("w", 1, List.of("x")));

        // a new head starts without writes
        Checkpoint cp3 = cp(thread, "", cp2, 1);
        await(store.put(cp3, cp2.id()));
        assertThat(await(store.head(thread, "")).orElseThrow().pendingWrites()).isEmpty();
        assertSameWrites(await(store.get(thread, "", cp2.id())).orElseThrow().pendingWrites(), List.of(onHead));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void reputtingAWriteReplacesIt(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint cp = linear(store, thread, "", 1).get(0);

        PendingWrite w0 = new PendingWrite("task-1", "a", 0, "count", Stored.live(1, INT));
        PendingWrite w1 = new PendingWrite("task-1", "a", 1, PendingWrite.DONE, Stored.json("true"));
        await(store.putWrites(thread, "", cp.id(), List.of(w0, w1)));
        PendingWrite w0again = new PendingWrite("task-1", "a", 0, "count", Stored.live(2, INT));
        await(store.putWrites(thread, "", cp.id(), List.of(w0again)));
        await(store.putWrites(thread, "", cp.id(), List.of(w0again)));

        List<PendingWrite> writes = await(store.head(thread, "")).orElseThrow().pendingWrites();
        assertSameWrites(writes, List.of(w0again, w1));
        assertThat(byKey(writes).get("task-1/0").value().decode(INT)).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void writesOfSeveralTasksAccumulate(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        Checkpoint cp = linear(store, thread, "", 1).get(0);

        List<PendingWrite> expected = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            List<PendingWrite> ofTask = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ofTask.add(new PendingWrite("task-" + t, "node-" + t, i, "count", Stored.live(t * 10 + i, INT)));
            }
            ofTask.add(new PendingWrite("task-" + t, "node-" + t, 3, PendingWrite.DONE, Stored.json("null")));
            await(store.putWrites(thread, "", cp.id(), ofTask));
            expected.addAll(ofTask);
        }
        // a task that interrupted, then got a resume value
        PendingWrite interrupt = new PendingWrite("task-9", "human", 0, PendingWrite.INTERRUPT, Stored.json("{\"question\":\"ok?\"}"));
        PendingWrite resume = new PendingWrite("task-9", "human", 1, PendingWrite.RESUME, Stored.json("\"yes\""));
        await(store.putWrites(thread, "", cp.id(), List.of(interrupt)));
        await(store.putWrites(thread, "", cp.id(), List.of(resume)));
        expected.add(interrupt);
        expected.add(resume);

        assertSameWrites(await(store.head(thread, "")).orElseThrow().pendingWrites(), expected);
        assertSameWrites(await(store.get(thread, "", cp.id())).orElseThrow().pendingWrites(), expected);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void deleteWritesDeletesThoseOfOneCheckpointOnly(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 2);
        List<Checkpoint> sub = linear(store, thread, "sub:x", 1);
        PendingWrite w = new PendingWrite("task-1", "a", 0, "count", Stored.live(1, INT));
        PendingWrite done = new PendingWrite("task-1", "a", 1, PendingWrite.DONE, Stored.json("true"));
        await(store.putWrites(thread, "", line.get(0).id(), List.of(w, done)));
        await(store.putWrites(thread, "", line.get(1).id(), List.of(w)));
        await(store.putWrites(thread, "sub:x", sub.get(0).id(), List.of(w)));

        await(store.deleteWrites(thread, "", line.get(0).id()));

        assertThat(await(store.get(thread, "", line.get(0).id())).orElseThrow().pendingWrites()).isEmpty();
        assertSameWrites(await(store.head(thread, "")).orElseThrow().pendingWrites(), List.of(w));
        assertSameWrites(await(store.head(thread, "sub:x")).orElseThrow().pendingWrites(), List.of(w));
        // the checkpoint itself stays, and deleting again or elsewhere is no error
        assertSameCheckpoint(await(store.get(thread, "", line.get(0).id())).orElseThrow().checkpoint(), line.get(0));
        await(store.deleteWrites(thread, "", line.get(0).id()));
        await(store.deleteWrites(thread, "", "not-a-uuid"));
        await(store.deleteWrites(thread(), "", line.get(1).id()));
        assertSameWrites(await(store.head(thread, "")).orElseThrow().pendingWrites(), List.of(w));
    }

    // ---- chain

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aChainWithoutSnapshotIsEveryCheckpointOldestFirst(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 5);

        CheckpointChain chain = await(store.chain(thread, "", line.get(4).id())).orElseThrow();
        assertThat(chain.base()).isEmpty();
        assertThat(ids(chain.since())).containsExactlyElementsOf(ids(line));
        assertThat(chain.target().id()).isEqualTo(line.get(4).id());
        for (int i = 0; i < 5; i++) {
            assertSameCheckpoint(chain.since().get(i), line.get(i));
        }

        CheckpointChain ofFirst = await(store.chain(thread, "", line.get(0).id())).orElseThrow();
        assertThat(ofFirst.base()).isEmpty();
        assertThat(ids(ofFirst.since())).containsExactly(line.get(0).id());
        assertThat(ofFirst.target().id()).isEqualTo(line.get(0).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aChainStartsAtTheNearestSnapshot(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 5);
        Map<String, Stored> snapshot = Map.of(
                "count", Stored.live(42, INT),
                "note", Stored.live(new Note("snap", 3, List.of("s")), NOTE),
                "messages", Stored.json("[{\"id\":\"m1\"}]"));
        await(store.putSnapshot(thread, "", line.get(2).id(), snapshot));

        CheckpointChain chain = await(store.chain(thread, "", line.get(4).id())).orElseThrow();
        assertSameValues(chain.base(), snapshot);
        assertThat(chain.base().get("note").decode(NOTE)).isEqualTo(new Note("snap", 3, List.of("s")));
        assertThat(ids(chain.since())).containsExactly(line.get(3).id(), line.get(4).id());
        assertSameCheckpoint(chain.target(), line.get(4));

        CheckpointChain atSnapshot = await(store.chain(thread, "", line.get(2).id())).orElseThrow();
        assertSameValues(atSnapshot.base(), snapshot);
        assertThat(atSnapshot.since()).isEmpty();
        assertSameCheckpoint(atSnapshot.target(), line.get(2));

        // above the snapshot nothing changes
        CheckpointChain above = await(store.chain(thread, "", line.get(1).id())).orElseThrow();
        assertThat(above.base()).isEmpty();
        assertThat(ids(above.since())).containsExactly(line.get(0).id(), line.get(1).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aNewSnapshotReplacesOlderOnesAndOlderCheckpointsStillReadByReplay(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 5);
        await(store.putSnapshot(thread, "", line.get(1).id(), Map.of("count", Stored.live(1, INT))));
        await(store.putSnapshot(thread, "", line.get(3).id(), Map.of("count", Stored.live(3, INT))));

        CheckpointChain below = await(store.chain(thread, "", line.get(2).id())).orElseThrow();
        assertThat(below.base()).isEmpty();
        assertThat(ids(below.since())).containsExactly(line.get(0).id(), line.get(1).id(), line.get(2).id());
        // prune needs the snapshot it keeps from: the replaced one no longer counts
        assertThatThrownBy(() -> await(store.prune(thread, "", line.get(1).id()))).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aNewerSnapshotOnTheLineageWins(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 5);
        await(store.putSnapshot(thread, "", line.get(1).id(), Map.of("count", Stored.live(1, INT))));
        await(store.putSnapshot(thread, "", line.get(3).id(), Map.of("count", Stored.live(3, INT))));

        CheckpointChain chain = await(store.chain(thread, "", line.get(4).id())).orElseThrow();
        assertThat(chain.base().get("count").decode(INT)).isEqualTo(3);
        assertThat(ids(chain.since())).containsExactly(line.get(4).id());
        // below the newer snapshot, see aNewSnapshotReplacesOlderOnesAndOlderCheckpointsStillReadByReplay
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void aForkChainsOnlyItsOwnLineage(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> trunk = linear(store, thread, "", 2);
        Checkpoint parent = trunk.get(1);
        Checkpoint a = cp(thread, "", parent, 1);
        await(store.put(a, parent.id()));
        Checkpoint a2 = cp(thread, "", a, 2);
        await(store.put(a2, a.id()));
        // a fork: built on the parent, but it becomes the head after a2
        String bid = TimeOrderedIds.next();
        Checkpoint b = new Checkpoint(thread, "", bid, parent.id(), 1, CheckpointSource.FORK, null,
                Map.of("count", Stored.live(100, INT)), Map.of(), List.of(), Map.of(), TimeOrderedIds.millisOf(bid), 3);
        await(store.put(b, a2.id()));

        assertThat(ids(await(store.chain(thread, "", a2.id())).orElseThrow().since()))
                .containsExactly(trunk.get(0).id(), parent.id(), a.id(), a2.id());
        assertThat(ids(await(store.chain(thread, "", b.id())).orElseThrow().since()))
                .containsExactly(trunk.get(0).id(), parent.id(), b.id());
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(b.id());

        await(store.putSnapshot(thread, "", parent.id(), Map.of("count", Stored.live(7, INT))));
        CheckpointChain fromSnapshot = await(store.chain(thread, "", b.id())).orElseThrow();
        assertThat(fromSnapshot.base().get("count").decode(INT)).isEqualTo(7);
        assertThat(ids(fromSnapshot.since())).containsExactly(b.id());
        assertThat(ids(await(store.chain(thread, "", a2.id())).orElseThrow().since())).containsExactly(a.id(), a2.id());
    }

    // ---- namespaces and deletion

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void namespacesOfAThreadAreIndependent(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> root = linear(store, thread, "", 3);
        List<Checkpoint> sub = linear(store, thread, "sub:x", 2);

        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(root.get(2).id());
        assertThat(await(store.head(thread, "sub:x")).orElseThrow().checkpoint().id()).isEqualTo(sub.get(1).id());
        assertThat(await(store.head(thread, "sub:x")).orElseThrow().checkpoint().ns()).isEqualTo("sub:x");
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactlyElementsOf(ids(root).reversed());
        assertThat(ids(await(store.list(thread, "sub:x", 10, null)))).containsExactlyElementsOf(ids(sub).reversed());
        assertThat(await(store.get(thread, "", sub.get(0).id()))).isEmpty();
        assertThat(await(store.get(thread, "sub:x", root.get(0).id()))).isEmpty();
        assertThat(ids(await(store.chain(thread, "sub:x", sub.get(1).id())).orElseThrow().since())).containsExactlyElementsOf(ids(sub));

        // the sub namespace's head is not the root's: expecting the root head there conflicts
        Checkpoint wrong = cp(thread, "sub:x", sub.get(1), 2);
        assertThatThrownBy(() -> await(store.put(wrong, root.get(2).id()))).isInstanceOf(CheckpointConflictException.class);

        PendingWrite w = new PendingWrite("task-1", "a", 0, "count", Stored.live(1, INT));
        await(store.putWrites(thread, "sub:x", sub.get(1).id(), List.of(w)));
        assertThat(await(store.head(thread, "")).orElseThrow().pendingWrites()).isEmpty();
        assertSameWrites(await(store.head(thread, "sub:x")).orElseThrow().pendingWrites(), List.of(w));

        Checkpoint root4 = cp(thread, "", root.get(2), 3);
        await(store.put(root4, root.get(2).id()));
        assertThat(await(store.head(thread, "sub:x")).orElseThrow().checkpoint().id()).isEqualTo(sub.get(1).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void deleteThreadRemovesEveryNamespaceOfItAndNothingElse(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        String other = thread();
        List<Checkpoint> root = linear(store, thread, "", 3);
        List<Checkpoint> sub = linear(store, thread, "sub:x", 2);
        await(store.putWrites(thread, "", root.get(2).id(), List.of(new PendingWrite("t", "a", 0, "count", Stored.live(1, INT)))));
        await(store.putSnapshot(thread, "", root.get(1).id(), Map.of("count", Stored.live(1, INT))));
        List<Checkpoint> kept = linear(store, other, "", 2);
        List<Checkpoint> keptSub = linear(store, other, "sub:x", 1);

        await(store.deleteThread(thread));

        for (String ns : List.of("", "sub:x")) {
            assertThat(await(store.head(thread, ns))).isEmpty();
            assertThat(await(store.list(thread, ns, 10, null))).isEmpty();
        }
        assertThat(await(store.get(thread, "", root.get(0).id()))).isEmpty();
        assertThat(await(store.chain(thread, "", root.get(2).id()))).isEmpty();
        assertThat(await(store.chain(thread, "sub:x", sub.get(1).id()))).isEmpty();

        assertThat(ids(await(store.list(other, "", 10, null)))).containsExactlyElementsOf(ids(kept).reversed());
        assertThat(ids(await(store.list(other, "sub:x", 10, null)))).containsExactlyElementsOf(ids(keptSub));
        assertThat(await(store.head(other, "")).orElseThrow().checkpoint().id()).isEqualTo(kept.get(1).id());

        // the thread can start again from nothing, without leftovers
        Checkpoint fresh = cp(thread, "", null, -1);
        await(store.put(fresh, null));
        Head head = await(store.head(thread, "")).orElseThrow();
        assertThat(head.checkpoint().id()).isEqualTo(fresh.id());
        assertThat(head.pendingWrites()).isEmpty();
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactly(fresh.id());

        // deleting an unknown thread is not an error
        await(store.deleteThread(thread()));
    }

    // ---- prune

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void pruneRefusesWhenKeepFromHasNoSnapshot(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 4);
        // a snapshot elsewhere does not count
        await(store.putSnapshot(thread, "", line.get(1).id(), Map.of("count", Stored.live(1, INT))));

        assertThatThrownBy(() -> await(store.prune(thread, "", line.get(2).id()))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> await(store.prune(thread, "", TimeOrderedIds.next()))).isInstanceOf(IllegalStateException.class);
        // nor does a snapshot in another namespace
        List<Checkpoint> sub = linear(store, thread, "sub:x", 1);
        await(store.putSnapshot(thread, "sub:x", sub.get(0).id(), Map.of("count", Stored.live(1, INT))));
        assertThatThrownBy(() -> await(store.prune(thread, "", line.get(3).id()))).isInstanceOf(IllegalStateException.class);

        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactlyElementsOf(ids(line).reversed());
        assertThat(ids(await(store.chain(thread, "", line.get(3).id())).orElseThrow().since()))
                .containsExactly(line.get(2).id(), line.get(3).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void pruneOfAThreadThatDoesNotExistRefusesToo(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        assertThatThrownBy(() -> await(store.prune(thread(), "", TimeOrderedIds.next()))).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void pruneDeletesOlderCheckpointsAndTheirWrites(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        List<Checkpoint> line = linear(store, thread, "", 5);
        PendingWrite old = new PendingWrite("task-old", "a", 0, "count", Stored.live(1, INT));
        PendingWrite kept = new PendingWrite("task-kept", "b", 0, "count", Stored.live(4, INT));
        await(store.putWrites(thread, "", line.get(0).id(), List.of(old)));
        await(store.putWrites(thread, "", line.get(1).id(), List.of(old)));
        await(store.putWrites(thread, "", line.get(3).id(), List.of(kept)));
        await(store.putSnapshot(thread, "", line.get(0).id(), Map.of("count", Stored.live(0, INT))));
        Map<String, Stored> snapshot = Map.of("count", Stored.live(2, INT), "note", Stored.live(new Note("kept", 2, List.of()), NOTE));
        await(store.putSnapshot(thread, "", line.get(2).id(), snapshot));
        // the other namespace and another thread are left alone
        List<Checkpoint> sub = linear(store, thread, "sub:x", 3);
        List<Checkpoint> other = linear(store, thread(), "", 3);

        long deleted = await(store.prune(thread, "", line.get(2).id()));

        assertThat(deleted).isEqualTo(2L);
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactly(line.get(4).id(), line.get(3).id(), line.get(2).id());
        assertThat(await(store.get(thread, "", line.get(0).id()))).isEmpty();
        assertThat(await(store.get(thread, "", line.get(1).id()))).isEmpty();
        assertThat(await(store.chain(thread, "", line.get(1).id()))).isEmpty();
        assertSameWrites(await(store.get(thread, "", line.get(3).id())).orElseThrow().pendingWrites(), List.of(kept));

        CheckpointChain chain = await(store.chain(thread, "", line.get(4).id())).orElseThrow();
        assertSameValues(chain.base(), snapshot);
        assertThat(ids(chain.since())).containsExactly(line.get(3).id(), line.get(4).id());
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(line.get(4).id());

        assertThat(await(store.list(thread, "sub:x", 10, null))).hasSize(3);
        assertThat(ids(await(store.list(other.get(0).threadId(), "", 10, null)))).containsExactlyElementsOf(ids(other).reversed());
        assertThat(ids(await(store.chain(thread, "sub:x", sub.get(2).id())).orElseThrow().since())).containsExactlyElementsOf(ids(sub));

        // pruning again from the same point deletes nothing more
        assertThat(await(store.prune(thread, "", line.get(2).id()))).isZero();

        // the writes of a pruned checkpoint are gone: a checkpoint stored again under its id has none
        Checkpoint again = new Checkpoint(thread, "", line.get(1).id(), line.get(4).id(), 5, CheckpointSource.UPDATE, null, Map.of(), Map.of(),
                List.of(), Map.of(), TimeOrderedIds.millisOf(line.get(1).id()), 1);
        await(store.put(again, line.get(4).id()));
        assertThat(await(store.get(thread, "", again.id())).orElseThrow().pendingWrites()).isEmpty();
    }

    // ---- rolling a run back

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void deleteRunDeletesItsCheckpointsInEveryNamespaceAndMovesTheHeadBack(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        String runA = TimeOrderedIds.next();
        String runB = TimeOrderedIds.next();
        List<Checkpoint> a = chainOfRun(store, thread, "", null, runA, 2);
        List<Checkpoint> b = chainOfRun(store, thread, "", a.get(1), runB, 3);
        List<Checkpoint> subA = chainOfRun(store, thread, "sub:x", null, runA, 1);
        List<Checkpoint> subB = chainOfRun(store, thread, "sub:x", subA.get(0), runB, 2);
        List<Checkpoint> onlyB = chainOfRun(store, thread, "sub:y", null, runB, 2);
        await(store.putWrites(thread, "", b.get(2).id(), List.of(new PendingWrite("t", "n", 0, "count", Stored.live(1, INT)))));
        await(store.putWrites(thread, "", a.get(1).id(), List.of(new PendingWrite("t", "n", 0, "count", Stored.live(2, INT)))));
        await(store.putSnapshot(thread, "", b.get(1).id(), Map.of("count", Stored.live(9, INT))));
        // another thread where the same run id wrote too is left alone
        String other = thread();
        List<Checkpoint> otherB = chainOfRun(store, other, "", null, runB, 2);

        long deleted = await(store.deleteRun(thread, runB));

        assertThat(deleted).isEqualTo(7L);
        Head head = await(store.head(thread, "")).orElseThrow();
        assertThat(head.checkpoint().id()).isEqualTo(a.get(1).id());
        assertThat(head.pendingWrites()).as("writes of checkpoints that stay, stay").hasSize(1);
        assertThat(ids(await(store.list(thread, "", 10, null)))).containsExactly(a.get(1).id(), a.get(0).id());
        for (Checkpoint c : b) {
            assertThat(await(store.get(thread, "", c.id()))).isEmpty();
            assertThat(await(store.chain(thread, "", c.id()))).isEmpty();
        }
        CheckpointChain chain = await(store.chain(thread, "", a.get(1).id())).orElseThrow();
        assertThat(chain.base()).isEmpty();
        assertThat(ids(chain.since())).containsExactlyElementsOf(ids(a));
        assertThat(await(store.head(thread, "sub:x")).orElseThrow().checkpoint().id()).isEqualTo(subA.get(0).id());
        assertThat(ids(await(store.list(thread, "sub:x", 10, null)))).containsExactly(subA.get(0).id());
        // a namespace the run alone wrote is gone, and can start again
        assertThat(await(store.head(thread, "sub:y"))).isEmpty();
        assertThat(await(store.list(thread, "sub:y", 10, null))).isEmpty();
        assertThat(await(store.get(thread, "sub:y", onlyB.get(0).id()))).isEmpty();
        await(store.put(cp(thread, "sub:y", null, -1), null));
        assertThat(ids(await(store.list(other, "", 10, null)))).containsExactlyElementsOf(ids(otherB).reversed());

        // the thread goes on from the head it was moved back to
        Checkpoint next = cp(thread, "", a.get(1), 1);
        await(store.put(next, a.get(1).id()));
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(next.id());
        // rolling back again finds nothing more
        assertThat(await(store.deleteRun(thread, runB))).isZero();
        assertThat(ids(await(store.list(thread, "sub:x", 10, null)))).containsExactly(subA.get(0).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void deleteRunRefusesWhenAnotherRunBuiltOnItAndDeletesNothing(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        String runA = TimeOrderedIds.next();
        String runB = TimeOrderedIds.next();
        String runC = TimeOrderedIds.next();
        List<Checkpoint> a = chainOfRun(store, thread, "", null, runA, 1);
        List<Checkpoint> b = chainOfRun(store, thread, "", a.get(0), runB, 2);
        List<Checkpoint> c = chainOfRun(store, thread, "", b.get(1), runC, 1);
        List<Checkpoint> subB = chainOfRun(store, thread, "sub:x", null, runB, 1);

        assertThatThrownBy(() -> await(store.deleteRun(thread, runB))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(c.get(0).id());

        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(c.get(0).id());
        assertThat(await(store.list(thread, "", 10, null))).hasSize(4);
        assertThat(await(store.head(thread, "sub:x")).orElseThrow().checkpoint().id()).isEqualTo(subB.get(0).id());

        // newest first, it works
        assertThat(await(store.deleteRun(thread, runC))).isEqualTo(1L);
        assertThat(await(store.deleteRun(thread, runB))).isEqualTo(3L);
        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(a.get(0).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void deleteRunLeavesAHeadThatIsNotTheRunsAndIgnoresUnknownRunsAndThreads(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String thread = thread();
        String runA = TimeOrderedIds.next();
        String runB = TimeOrderedIds.next();
        List<Checkpoint> a = chainOfRun(store, thread, "", null, runA, 2);
        chainOfRun(store, thread, "", a.get(1), runB, 2);
        // a fork from a's end by another run: the head is no longer the run's
        String forkId = TimeOrderedIds.next();
        Checkpoint fork = new Checkpoint(thread, "", forkId, a.get(1).id(), 2, CheckpointSource.FORK, TimeOrderedIds.next(), Map.of(), Map.of(),
                List.of(), Map.of(), TimeOrderedIds.millisOf(forkId), 3);
        await(store.put(fork, await(store.head(thread, "")).orElseThrow().checkpoint().id()));

        assertThat(await(store.deleteRun(thread, runB))).isEqualTo(2L);

        assertThat(await(store.head(thread, "")).orElseThrow().checkpoint().id()).isEqualTo(fork.id());
        assertThat(await(store.list(thread, "", 10, null))).hasSize(3);
        assertThat(await(store.deleteRun(thread, TimeOrderedIds.next()))).isZero();
        assertThat(await(store.deleteRun(thread, "not-a-uuid"))).isZero();
        assertThat(await(store.deleteRun(thread(), runA))).isZero();
        assertThat(await(store.list(thread, "", 10, null))).hasSize(3);
    }

    /** {@code n} checkpoints of run {@code runId}, each on the one before, the first on {@code parent}. */
    private static List<Checkpoint> chainOfRun(Checkpointer store, String thread, String ns, Checkpoint parent, String runId, int n) {
        List<Checkpoint> out = new ArrayList<>();
        Checkpoint p = parent;
        for (int i = 0; i < n; i++) {
            Checkpoint c = cp(thread, ns, p, p == null ? -1 : p.step() + 1);
            c = new Checkpoint(c.threadId(), c.ns(), c.id(), c.parentId(), c.step(), c.source(), runId, c.values(), c.deltas(),
                    c.next(), c.metadata(), c.createdAtMillis(), c.chainLength());
            await(store.put(c, p == null ? null : p.id()));
            out.add(c);
            p = c;
        }
        return out;
    }

    // ---- odd thread ids

    @ParameterizedTest
    @MethodSource("io.conduit.checkpoint.Stores#all")
    void threadIdsWithOddCharactersWork(Supplier<Checkpointer> stores) {
        Checkpointer store = stores.get();
        String r = UUID.randomUUID().toString();
        List<String> threads = List.of(
                "it's \"quoted\" " + r,
                "ünïcødé 日本語 🙂 " + r,
                "a|b|" + r,
                "back\\slash %_ " + r,
                "{\"json\": [1]} " + r,
                "new\nline\ttab " + r);
        for (String thread : threads) {
            List<Checkpoint> line = linear(store, thread, "sub:x|y", 2);
            await(store.putWrites(thread, "sub:x|y", line.get(1).id(), List.of(new PendingWrite("t|1", "n'", 0, "count", Stored.live(3, INT)))));
            Head head = await(store.head(thread, "sub:x|y")).orElseThrow();
            assertThat(head.checkpoint().threadId()).isEqualTo(thread);
            assertThat(head.checkpoint().id()).isEqualTo(line.get(1).id());
            assertThat(head.pendingWrites()).singleElement().satisfies(w -> assertThat(w.taskId()).isEqualTo("t|1"));
            assertThat(ids(await(store.list(thread, "sub:x|y", 10, null)))).containsExactlyElementsOf(ids(line).reversed());
            assertThat(ids(await(store.chain(thread, "sub:x|y", line.get(1).id())).orElseThrow().since())).containsExactlyElementsOf(ids(line));
            assertThat(await(store.head(thread, ""))).isEmpty();
        }

        // a thread id and namespace must not run together: ("a|b", "c") is not ("a", "b|c")
        String base = "join-" + r;
        Checkpoint left = cp(base + "|b", "c", null, -1);
        await(store.put(left, null));
        assertThat(await(store.head(base, "b|c"))).isEmpty();
        Checkpoint right = cp(base, "b|c", null, -1);
        await(store.put(right, null));
        assertThat(await(store.head(base + "|b", "c")).orElseThrow().checkpoint().id()).isEqualTo(left.id());
        assertThat(await(store.head(base, "b|c")).orElseThrow().checkpoint().id()).isEqualTo(right.id());

        // a thread id is not a pattern: deleting "x%" leaves "xy" alone
        String prefix = "pattern-" + r;
        linear(store, prefix + "y", "", 1);
        linear(store, prefix + "%", "", 1);
        linear(store, prefix + "_", "", 1);
        await(store.deleteThread(prefix + "%"));
        await(store.deleteThread(prefix + "_"));
        assertThat(await(store.head(prefix + "y", ""))).isPresent();
        assertThat(await(store.head(prefix + "%", ""))).isEmpty();

        for (String thread : threads) {
            await(store.deleteThread(thread));
            assertThat(await(store.head(thread, "sub:x|y"))).isEmpty();
        }
    }

    // ---- helpers

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    private static String thread() {
        return "contract-" + UUID.randomUUID();
    }

    /** A checkpoint built on {@code parent} (null: the first of its namespace) with a value and a delta. */
    private static Checkpoint cp(String thread, String ns, Checkpoint parent, int step) {
        String id = TimeOrderedIds.next();
        Map<String, Stored> values = Map.of("count", Stored.live(step, INT));
        Map<String, Stored> deltas = Map.of("messages", Stored.json("[{\"id\":\"" + id + "\",\"text\":\"step " + step + "\"}]"));
        List<TaskSpec> next = List.of(TaskSpec.of("node-" + (step + 1)));
        return new Checkpoint(thread, ns, id, parent == null ? null : parent.id(), step, parent == null ? CheckpointSource.INPUT : CheckpointSource.LOOP,
                UUID.randomUUID().toString(), values, deltas, next, Map.of("step", Integer.toString(step)),
                TimeOrderedIds.millisOf(id), parent == null ? 1 : parent.chainLength() + 1);
    }

    /** Stores {@code n} checkpoints, each built on the one before. */
    private static List<Checkpoint> linear(Checkpointer store, String thread, String ns, int n) {
        List<Checkpoint> out = new ArrayList<>();
        Checkpoint parent = null;
        for (int i = 0; i < n; i++) {
            Checkpoint c = cp(thread, ns, parent, i - 1);
            await(store.put(c, parent == null ? null : parent.id()));
            out.add(c);
            parent = c;
        }
        return out;
    }

    private static List<String> ids(List<Checkpoint> checkpoints) {
        return checkpoints.stream().map(Checkpoint::id).toList();
    }

    private static JsonNode tree(Stored stored) {
        try {
            return JsonCodec.MAPPER.readTree(stored.json());
        } catch (JsonProcessingException e) {
            throw new AssertionError("stored value is not JSON: " + stored.json(), e);
        }
    }

    private static void assertSameJson(Stored actual, Stored expected, String what) {
        if (expected == null) {
            assertThat(actual).as(what).isNull();
            return;
        }
        assertThat(actual).as(what).isNotNull();
        assertThat(tree(actual)).as(what).isEqualTo(tree(expected));
    }

    private static void assertSameValues(Map<String, Stored> actual, Map<String, Stored> expected) {
        assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        expected.forEach((k, v) -> assertSameJson(actual.get(k), v, "channel " + k));
    }

    private static void assertSameCheckpoint(Checkpoint actual, Checkpoint expected) {
        assertThat(actual.threadId()).isEqualTo(expected.threadId());
        assertThat(actual.ns()).isEqualTo(expected.ns());
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.parentId()).isEqualTo(expected.parentId());
        assertThat(actual.step()).isEqualTo(expected.step());
        assertThat(actual.source()).isEqualTo(expected.source());
        assertThat(actual.runId()).isEqualTo(expected.runId());
        assertSameValues(actual.values(), expected.values());
        assertSameValues(actual.deltas(), expected.deltas());
        assertThat(actual.next()).hasSameSizeAs(expected.next());
        for (int i = 0; i < expected.next().size(); i++) {
            assertThat(actual.next().get(i).node()).isEqualTo(expected.next().get(i).node());
            assertSameJson(actual.next().get(i).input(), expected.next().get(i).input(), "input of next task " + i);
        }
        assertThat(actual.metadata()).isEqualTo(expected.metadata());
        assertThat(actual.createdAtMillis()).isEqualTo(expected.createdAtMillis());
        assertThat(actual.chainLength()).isEqualTo(expected.chainLength());
    }

    private static Map<String, PendingWrite> byKey(List<PendingWrite> writes) {
        Map<String, PendingWrite> out = new LinkedHashMap<>();
        for (PendingWrite w : writes) {
            assertThat(out.put(w.taskId() + "/" + w.idx(), w)).as("duplicate write " + w.taskId() + "/" + w.idx()).isNull();
        }
        return out;
    }

    /** The same writes, in any order (the contract does not order them). */
    private static void assertSameWrites(List<PendingWrite> actual, List<PendingWrite> expected) {
        Map<String, PendingWrite> got = byKey(actual);
        Map<String, PendingWrite> want = byKey(expected);
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(want.keySet());
        want.forEach((k, w) -> {
            PendingWrite g = got.get(k);
            assertThat(g.node()).as("node of " + k).isEqualTo(w.node());
            assertThat(g.channel()).as("channel of " + k).isEqualTo(w.channel());
            assertSameJson(g.value(), w.value(), "value of " + k);
        });
    }
}
