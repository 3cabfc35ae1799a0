package io.conduit.graph;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * Shared test types: chat items for a messages channel (a message, or the removal of one), and the channels the
 * graph tests use. The item type is a sealed interface with a Jackson type tag, so a channel can hold both kinds
 * and a database-backed store reads them back as the same records.
 */
public final class TestMessages {

    private TestMessages() {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = Msg.class, name = "msg"),
            @JsonSubTypes.Type(value = Remove.class, name = "remove")})
    public sealed interface Item extends Identified permits Msg, Remove {
    }

    /** A chat message. */
    public record Msg(String id, String role, String text) implements Item {

        public static Msg user(String id, String text) {
            return new Msg(id, "user", text);
        }

        public static Msg ai(String id, String text) {
            return new Msg(id, "ai", text);
        }
    }

    /** Removes the message with this id (LangGraph's RemoveMessage). */
    public record Remove(String id) implements Item, Removal {
    }

    /** A messages channel named "messages". */
    public static MessagesChannel<Item> messages() {
        return Channels.messages("messages", Item.class);
    }

    /** A last-value integer channel starting at 0. */
    public static LastValueChannel<Integer> counter(String name) {
        return Channels.lastValue(name, Integer.class, 0);
    }

    /** A last-value string channel starting at "". */
    public static LastValueChannel<String> text(String name) {
        return Channels.lastValue(name, String.class, "");
    }

    /** The ids of the items of a message list, in order. */
    public static List<String> ids(MessageList<Item> list) {
        return list.asList().stream().map(Identified::id).toList();
    }

    /** The texts of the messages of a message list, in order. */
    public static List<String> texts(MessageList<Item> list) {
        return list.asList().stream().map(i -> ((Msg) i).text()).toList();
    }

    /** One message as an update to {@code channel}. */
    public static Update say(MessagesChannel<Item> channel, Msg m) {
        return Update.of(channel, m);
    }
}
