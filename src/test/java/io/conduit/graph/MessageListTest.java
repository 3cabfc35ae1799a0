package io.conduit.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MessageListTest {

    sealed interface Item extends Identified permits Msg, Remove {
    }

    record Msg(String id, String text) implements Item {
    }

    record Remove(String id) implements Item, Removal {
    }

    private static Msg msg(String id) {
        return new Msg(id, "text of " + id);
    }

    private static List<String> ids(MessageList<Item> list) {
        return list.asList().stream().map(Identified::id).toList();
    }

    private static MessageList<Item> of(Item... items) {
        return MessageList.of(List.of(items));
    }

    @Test
    void theEmptyList() {
        MessageList<Item> empty = MessageList.empty();
        assertThat(empty.size()).isZero();
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.last()).isNull();
        assertThat(empty.byId("a")).isNull();
        assertThat(empty.indexOf("a")).isEqualTo(-1);
        assertThat(empty.asList()).isEmpty();
        assertThat(empty.iterator().hasNext()).isFalse();
        assertThatThrownBy(() -> empty.get(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(empty.with(List.of())).isSameAs(empty);
    }

    @Test
    void newIdsAppendInOrder() {
        MessageList<Item> list = of(msg("a"), msg("b")).with(List.of(msg("c"), msg("d")));
        assertThat(ids(list)).containsExactly("a", "b", "c", "d");
        assertThat(list.size()).isEqualTo(4);
        assertThat(list.isEmpty()).isFalse();
        assertThat(list.get(2)).isEqualTo(msg("c"));
        assertThat(list.last()).isEqualTo(msg("d"));
        assertThatThrownBy(() -> list.get(4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> list.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        List<String> iterated = new ArrayList<>();
        list.forEach(m -> iterated.add(m.id()));
        assertThat(iterated).containsExactly("a", "b", "c", "d");
    }

    @Test
    void aKnownIdReplacesInPlaceAndLeavesTheOriginalAlone() {
        MessageList<Item> before = of(msg("a"), msg("b"), msg("c"));
        Msg newB = new Msg("b", "edited");
        MessageList<Item> after = before.with(List.of(newB));

        assertThat(ids(after)).containsExactly("a", "b", "c");
        assertThat(after.get(1)).isSameAs(newB);
        assertThat(after.byId("b")).isSameAs(newB);
        assertThat(before.byId("b")).isEqualTo(msg("b"));
        assertThat(before.get(1)).isEqualTo(msg("b"));

        // appending after a replacement still works on both
        assertThat(ids(after.with(List.of(msg("d"))))).containsExactly("a", "b", "c", "d");
        assertThat(ids(before.with(List.of(msg("e"))))).containsExactly("a", "b", "c", "e");
        assertThat(after.byId("b")).isSameAs(newB);
    }

    @Test
    void aRemovalRemovesAndAnUnknownRemovalDoesNothing() {
        MessageList<Item> before = of(msg("a"), msg("b"), msg("c"));
        MessageList<Item> after = before.with(List.of(new Remove("b")));
        assertThat(ids(after)).containsExactly("a", "c");
        assertThat(after.byId("b")).isNull();
        assertThat(after.indexOf("b")).isEqualTo(-1);
        assertThat(after.indexOf("c")).isEqualTo(1);
        assertThat(ids(before)).containsExactly("a", "b", "c");

        assertThat(before.with(List.of(new Remove("zzz")))).isEqualTo(before);
        // a removal is never stored as an item
        assertThat(MessageList.<Item>empty().with(List.of(new Remove("x")))).isEmpty();

        // removed then written again: it comes back at the end
        assertThat(ids(after.with(List.of(msg("b"))))).containsExactly("a", "c", "b");
        assertThat(ids(before.with(List.of(new Remove("a"), new Remove("c"), new Remove("b"))))).isEmpty();
    }

    @Test
    void writesApplyInOrderWithinOneBatch() {
        Msg first = new Msg("a", "1");
        Msg second = new Msg("a", "2");
        MessageList<Item> list = MessageList.<Item>empty().with(List.of(first, second, msg("b"), new Remove("b"), msg("c")));
        assertThat(list.asList()).containsExactly(second, msg("c"));
        assertThat(MessageList.<Item>of(List.of(msg("x"), new Remove("x"), msg("x"))).asList()).containsExactly(msg("x"));
    }

    @Test
    void everyItemNeedsAnId() {
        MessageList<Item> list = of(msg("a"));
        assertThatThrownBy(() -> list.with(List.of(new Msg(null, "no id")))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> list.with(List.of(new Remove(null)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> list.with(Arrays.asList(msg("b"), null))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MessageList.of(List.of(new Msg(null, "x")))).isInstanceOf(IllegalArgumentException.class);
        assertThat(ids(list)).containsExactly("a");
    }

    @Test
    void byIdAndIndexOf() {
        MessageList<Item> list = of(msg("a"), msg("b"), msg("c"));
        assertThat(list.indexOf("a")).isZero();
        assertThat(list.indexOf("c")).isEqualTo(2);
        assertThat(list.indexOf("d")).isEqualTo(-1);
        assertThat(list.byId("b")).isEqualTo(msg("b"));
        assertThat(list.byId("d")).isNull();

        // a shorter view of the same array does not see what was appended after it
        MessageList<Item> longer = list.with(List.of(msg("d")));
        assertThat(longer.indexOf("d")).isEqualTo(3);
        assertThat(list.indexOf("d")).isEqualTo(-1);
        assertThat(list.byId("d")).isNull();
        assertThat(list.size()).isEqualTo(3);
    }

    @Test
    void theListViewIsReadOnly() {
        List<Item> view = of(msg("a")).asList();
        assertThatThrownBy(() -> view.add(msg("b"))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> view.remove(0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> view.set(0, msg("b"))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void changedSinceReportsTheTailAfterAppends() {
        MessageList<Item> base = of(msg("a"), msg("b"));
        MessageList<Item> later = base.with(List.of(msg("c"))).with(List.of(msg("d")));
        assertThat(later.changedSince(base)).containsExactly(msg("c"), msg("d"));
        assertThat(later.changedSince(later)).isEmpty();
        assertThat(base.changedSince(base)).isEmpty();
        assertThat(later.changedSince(MessageList.empty())).containsExactly(msg("a"), msg("b"), msg("c"), msg("d"));
    }

    @Test
    void changedSinceReportsReplacedItemsButNotRemovals() {
        MessageList<Item> base = of(msg("a"), msg("b"), msg("c"));
        Msg newA = new Msg("a", "edited");
        MessageList<Item> later = base.with(List.of(newA, new Remove("b"), msg("d")));
        assertThat(later.changedSince(base)).containsExactly(newA, msg("d"));

        // replacing with an equal item is no change
        assertThat(base.with(List.of(msg("b"))).changedSince(base)).isEmpty();
        assertThat(base.with(List.of(new Remove("c"))).changedSince(base)).isEmpty();
    }

    @Test
    void viewsSharingAnArrayAreIndependent() {
        MessageList<Item> base = of(msg("m1"), msg("m2"));
        MessageList<Item> a = base.with(List.of(msg("a")));
        MessageList<Item> b = base.with(List.of(msg("b")));

        assertThat(ids(a)).containsExactly("m1", "m2", "a");
        assertThat(ids(b)).containsExactly("m1", "m2", "b");
        assertThat(ids(base)).containsExactly("m1", "m2");
        assertThat(a.changedSince(base)).containsExactly(msg("a"));
        assertThat(b.changedSince(base)).containsExactly(msg("b"));
        assertThat(a.byId("b")).isNull();
        assertThat(b.byId("a")).isNull();
        assertThat(a.indexOf("b")).isEqualTo(-1);
        assertThat(b.indexOf("a")).isEqualTo(-1);
        assertThat(a.changedSince(b)).containsExactly(msg("a"));
        assertThat(b.changedSince(a)).containsExactly(msg("b"));

        // each keeps growing on its own
        MessageList<Item> a2 = a.with(List.of(msg("x")));
        MessageList<Item> b2 = b.with(List.of(msg("x"), msg("a")));
        MessageList<Item> base2 = base.with(List.of(msg("c")));
        assertThat(ids(a2)).containsExactly("m1", "m2", "a", "x");
        assertThat(ids(b2)).containsExactly("m1", "m2", "b", "x", "a");
        assertThat(ids(base2)).containsExactly("m1", "m2", "c");
        assertThat(ids(a)).containsExactly("m1", "m2", "a");
        assertThat(ids(b)).containsExactly("m1", "m2", "b");
        assertThat(ids(base)).containsExactly("m1", "m2");
        assertThat(a2.changedSince(base)).containsExactly(msg("a"), msg("x"));
        assertThat(b2.changedSince(base)).containsExactly(msg("b"), msg("x"), msg("a"));
        assertThat(b2.changedSince(b)).containsExactly(msg("x"), msg("a"));
        // a shorter view compared with a longer one of the same array: nothing was appended or replaced
        assertThat(base.changedSince(a)).isEmpty();
    }

    @Test
    void viewsOfTheEmptyListAreIndependent() {
        MessageList<Item> a = MessageList.<Item>empty().with(List.of(msg("a")));
        MessageList<Item> b = MessageList.<Item>empty().with(List.of(msg("b")));
        assertThat(ids(a)).containsExactly("a");
        assertThat(ids(b)).containsExactly("b");
        assertThat(MessageList.<Item>empty()).isEmpty();
        assertThat(MessageList.<Item>empty().byId("a")).isNull();
        assertThat(a.changedSince(MessageList.empty())).containsExactly(msg("a"));
        assertThat(b.changedSince(MessageList.empty())).containsExactly(msg("b"));
    }

    /**
     * The shared empty list must never be extended in place: it is a static, so whatever were appended to its array
     * (the first conversation of the process, and everything it then appends) would stay reachable for good.
     */
    @Test
    void theSharedEmptyListNeverHoldsItems() throws Exception {
        MessageList<Item> grown = MessageList.<Item>empty().with(List.of(msg("first")));
        for (int i = 0; i < 20; i++) {
            grown = grown.with(List.of(msg("more-" + i)));
        }
        assertThat(grown.size()).isEqualTo(21);
        Object shared = field(MessageList.empty(), "shared");
        Object[] items = (Object[]) field(shared, "items");
        assertThat(items).containsOnlyNulls();
        assertThat((int) field(shared, "claimed")).isZero();
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        Field f = target.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
    }

    @Test
    void concurrentAppendsToOneBaseEachSeeOnlyTheirOwn() throws Exception {
        MessageList<Item> base = of(msg("m1"), msg("m2"));
        int writers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CyclicBarrier start = new CyclicBarrier(writers);
            List<Future<MessageList<Item>>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String id = "w" + i;
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    MessageList<Item> l = base;
                    for (int j = 0; j < 50; j++) {
                        l = l.with(List.of(msg(id + "-" + j)));
                    }
                    return l;
                }));
            }
            for (int i = 0; i < writers; i++) {
                MessageList<Item> l = results.get(i).get(10, TimeUnit.SECONDS);
                assertThat(l.size()).isEqualTo(52);
                assertThat(l.get(0).id()).isEqualTo("m1");
                assertThat(l.get(1).id()).isEqualTo("m2");
                for (int j = 0; j < 50; j++) {
                    assertThat(l.get(2 + j).id()).isEqualTo("w" + i + "-" + j);
                    assertThat(l.indexOf("w" + i + "-" + j)).isEqualTo(2 + j);
                }
                assertThat(l.changedSince(base)).hasSize(50);
            }
            assertThat(ids(base)).containsExactly("m1", "m2");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void equality() {
        MessageList<Item> built = MessageList.<Item>empty().with(List.of(msg("a"))).with(List.of(msg("b")));
        MessageList<Item> copied = of(msg("a"), msg("x"), msg("b")).with(List.of(new Remove("x")));
        MessageList<Item> direct = of(msg("a"), msg("b"));
        assertThat(built).isEqualTo(direct).isEqualTo(copied).hasSameHashCodeAs(direct).hasSameHashCodeAs(copied);
        assertThat(built.hashCode()).isEqualTo(List.of(msg("a"), msg("b")).hashCode());
        assertThat(built).isNotEqualTo(of(msg("b"), msg("a")));
        assertThat(built).isNotEqualTo(of(msg("a")));
        assertThat(built).isNotEqualTo(of(msg("a"), new Msg("b", "other text")));
        assertThat(built).isNotEqualTo(List.of(msg("a"), msg("b")));
        assertThat(MessageList.<Item>empty()).isEqualTo(of(msg("a")).with(List.of(new Remove("a"))));
        assertThat(built.toString()).contains("a").contains("b");
    }

    @Test
    void tenThousandAppendsStayCorrect() {
        int n = 10_000;
        MessageList<Item> list = MessageList.empty();
        List<MessageList<Item>> checkpoints = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list = list.with(List.of(msg("m" + i)));
            if (i % 1000 == 999) {
                checkpoints.add(list);
            }
        }
        assertThat(list.size()).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            assertThat(list.get(i).id()).isEqualTo("m" + i);
        }
        assertThat(list.indexOf("m0")).isZero();
        assertThat(list.indexOf("m9999")).isEqualTo(9999);
        assertThat(list.byId("m5000")).isEqualTo(msg("m5000"));
        assertThat(list.last()).isEqualTo(msg("m9999"));

        // every earlier view still holds exactly what it held
        for (int c = 0; c < checkpoints.size(); c++) {
            MessageList<Item> view = checkpoints.get(c);
            int size = (c + 1) * 1000;
            assertThat(view.size()).isEqualTo(size);
            assertThat(view.last().id()).isEqualTo("m" + (size - 1));
            assertThat(view.indexOf("m" + size)).isEqualTo(-1);
            assertThat(list.changedSince(view)).hasSize(n - size);
        }
        List<Item> tail = list.changedSince(checkpoints.get(4));
        assertThat(tail.get(0).id()).isEqualTo("m5000");
        assertThat(tail.get(tail.size() - 1).id()).isEqualTo("m9999");

        // a branch off an old view leaves the long list untouched
        MessageList<Item> branch = checkpoints.get(0).with(List.of(msg("branch")));
        assertThat(branch.size()).isEqualTo(1001);
        assertThat(branch.last().id()).isEqualTo("branch");
        assertThat(list.get(1000).id()).isEqualTo("m1000");
        assertThat(list.byId("branch")).isNull();
    }
}
