package io.conduit.graph;

import static io.conduit.graph.TestMessages.ids;
import static io.conduit.graph.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.conduit.graph.TestMessages.Remove;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The reducers of the channel kinds, applied directly. */
class ReducersTest {

    private final MessagesChannel<Item> messages = TestMessages.messages();

    private static Msg m(String id) {
        return Msg.user(id, "text " + id);
    }

    @Test
    void lastValueKeepsTheLastWriteInTaskOrder() {
        LastValueChannel<String> ch = Channels.lastValue("v", String.class, "initial");
        assertThat(ch.empty()).isEqualTo("initial");
        assertThat(ch.apply("initial", List.of("a", "b", "c"))).isEqualTo("c");
        assertThat(ch.apply("c", List.of("b", "a"))).isEqualTo("a");
        assertThat(ch.apply("kept", List.of())).isEqualTo("kept");
    }

    @Test
    void messagesAppendInWriteOrder() {
        MessageList<Item> list = messages.apply(messages.empty(), List.of(m("1"), m("2")));
        list = messages.apply(list, List.of(m("3")));
        assertThat(ids(list)).containsExactly("1", "2", "3");
        assertThat(list.last()).isEqualTo(m("3"));
        assertThat(list.byId("2")).isEqualTo(m("2"));
    }

    @Test
    void aWriteWithAKnownIdReplacesThatMessageInPlace() {
        MessageList<Item> list = messages.apply(messages.empty(), List.of(m("1"), m("2"), m("3")));
        MessageList<Item> replaced = messages.apply(list, List.of(Msg.ai("2", "edited")));
        assertThat(ids(replaced)).containsExactly("1", "2", "3");
        assertThat(texts(replaced)).containsExactly("text 1", "edited", "text 3");
        assertThat(texts(list)).as("the earlier list is unchanged").containsExactly("text 1", "text 2", "text 3");
    }

    @Test
    void aRemovalRemovesTheMessageWithItsId() {
        MessageList<Item> list = messages.apply(messages.empty(), List.of(m("1"), m("2"), m("3")));
        MessageList<Item> removed = messages.apply(list, List.of(new Remove("2")));
        assertThat(ids(removed)).containsExactly("1", "3");
        assertThat(removed.byId("2")).isNull();
        assertThat(removed.indexOf("3")).isEqualTo(1);
        assertThat(ids(list)).containsExactly("1", "2", "3");
        assertThat(ids(messages.apply(removed, List.of(new Remove("unknown"))))).containsExactly("1", "3");
        // a removed id can be added again, at the end
        assertThat(ids(messages.apply(removed, List.of(m("2"))))).containsExactly("1", "3", "2");
    }

    @Test
    void twoViewsAppendedFromOneBaseDoNotSeeEachOthersItems() {
        MessageList<Item> base = MessageList.of(List.of(m("1")));
        MessageList<Item> left = base.with(List.of(m("left")));
        MessageList<Item> right = base.with(List.of(m("right")));

        assertThat(ids(base)).containsExactly("1");
        assertThat(ids(left)).containsExactly("1", "left");
        assertThat(ids(right)).containsExactly("1", "right");
        assertThat(left.byId("right")).isNull();
        assertThat(right.byId("left")).isNull();
        assertThat(base.byId("left")).isNull();
        assertThat(base.indexOf("right")).isEqualTo(-1);

        // both keep growing independently
        MessageList<Item> left2 = left.with(List.of(m("left2")));
        MessageList<Item> right2 = right.with(List.of(m("right2")));
        assertThat(ids(left2)).containsExactly("1", "left", "left2");
        assertThat(ids(right2)).containsExactly("1", "right", "right2");
        assertThat(ids(left)).containsExactly("1", "left");
        assertThat(ids(right)).containsExactly("1", "right");

        // a third branch reusing an id another branch appended gets its own item, not the other's
        MessageList<Item> third = base.with(List.of(Msg.ai("left", "mine")));
        assertThat(texts(third)).containsExactly("text 1", "mine");
        assertThat(texts(left)).containsExactly("text 1", "text left");
    }

    @Test
    void growingPastTheBackingArrayKeepsEveryView() {
        MessageList<Item> list = MessageList.empty();
        List<MessageList<Item>> views = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            list = list.with(List.of(m("m" + i)));
            views.add(list);
        }
        for (int i = 0; i < views.size(); i++) {
            assertThat(views.get(i).size()).isEqualTo(i + 1);
            assertThat(views.get(i).last().id()).isEqualTo("m" + i);
            assertThat(views.get(i).byId("m" + (i + 1))).isNull();
        }
        MessageList<Item> fork = views.get(5).with(List.of(m("fork")));
        assertThat(ids(fork)).hasSize(7).endsWith("m5", "fork");
        assertThat(views.get(6).last().id()).isEqualTo("m6");
    }

    @Test
    void concurrentAppendsToOneBaseEachGetTheirOwnList() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 50; round++) {
                MessageList<Item> base = MessageList.of(List.of(m("a"), m("b")));
                List<Callable<MessageList<Item>>> appends = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    String id = "t" + t;
                    appends.add(() -> base.with(List.of(m(id), m(id + "'"))));
                }
                List<Future<MessageList<Item>>> results = pool.invokeAll(appends);
                for (int t = 0; t < 8; t++) {
                    MessageList<Item> l = results.get(t).get(10, TimeUnit.SECONDS);
                    assertThat(ids(l)).containsExactly("a", "b", "t" + t, "t" + t + "'");
                }
                assertThat(ids(base)).containsExactly("a", "b");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void customReducerFoldsEachWriteInOrder() {
        ReducerChannel<Integer> sum = Channels.reduce("sum", Integer.class, 0, Integer::sum);
        assertThat(sum.empty()).isZero();
        assertThat(sum.apply(10, List.of(1, 2, 3))).isEqualTo(16);
        assertThat(sum.apply(10, List.of())).isEqualTo(10);

        ReducerChannel<String> trail = Channels.reduce("trail", String.class, "", (acc, w) -> acc + w);
        assertThat(trail.apply(">", List.of("a", "b", "c"))).isEqualTo(">abc");
        assertThat(trail.diff(">", ">abc")).as("a custom reducer has no inverse").isNull();
    }

    @Test
    void messageWritesAndValuesSurviveJson() {
        List<Item> writes = List.of(m("1"), Msg.ai("2", "hi"), new Remove("1"));
        String json = messages.writesCodec().encode(writes);
        assertThat(messages.writesCodec().decode(json)).isEqualTo(writes);

        MessageList<Item> value = messages.apply(messages.empty(), writes);
        MessageList<Item> back = messages.valueCodec().decode(messages.valueCodec().encode(value));
        assertThat(back).isEqualTo(value);
        assertThat(ids(back)).containsExactly("2");
        assertThat(back.byId("2")).isInstanceOf(Msg.class);
    }
}
