package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * A pre-model hook that puts the system prompt first: the instructions, the date and time in the user's time zone
 * ({@code config.configurable.timezone}, an IANA name; UTC when unset), and what is remembered about the user that
 * bears on their last message ({@link Memories}). The clock is a parameter, so tests fix it.
 */
public final class DatedSystemPrompt implements PreModelHook {

    /** The run's setting that names the user's time zone. */
    public static final String TIMEZONE = "timezone";

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("EEEE d MMMM yyyy, HH:mm", Locale.ENGLISH);

    /** What is remembered about the run's user that may help with {@code query} (their last message), best first. */
    @FunctionalInterface
    public interface Memories {
        Uni<List<String>> relevant(State state, NodeContext ctx, String query);

        static Memories none() {
            return (state, ctx, query) -> Uni.createFrom().item(List.of());
        }
    }

    private final BiFunction<State, NodeContext, String> instructions;
    private final Memories memories;
    private final Clock clock;

    public DatedSystemPrompt(BiFunction<State, NodeContext, String> instructions, Memories memories, Clock clock) {
        this.instructions = instructions;
        this.memories = memories;
        this.clock = clock;
    }

    public DatedSystemPrompt(String instructions, Memories memories, Clock clock) {
        this((state, ctx) -> instructions, memories, clock);
    }

    @Override
    public Uni<List<ChatMessage>> apply(List<ChatMessage> messages, State state, NodeContext ctx) {
        String query = lastUserText(messages);
        return memories.relevant(state, ctx, query).map(found -> {
            StringBuilder sb = new StringBuilder(instructions.apply(state, ctx));
            sb.append("\n\nCurrent date and time: ").append(now(ctx));
            if (!found.isEmpty()) {
                sb.append("\n\nWhat you remember about the user:");
                found.forEach(m -> sb.append("\n- ").append(m));
            }
            List<ChatMessage> out = new ArrayList<>(messages.size() + 1);
            out.add(SystemMessage.of(sb.toString()));
            out.addAll(messages);
            return out;
        });
    }

    /** Now in the run's time zone, e.g. {@code Tuesday 24 November 2026, 08:15 (Asia/Tokyo, UTC+09:00)}, or {@code ... (UTC)}. */
    String now(NodeContext ctx) {
        ZoneId zone = zone(ctx.configurable().get(TIMEZONE));
        ZonedDateTime t = ZonedDateTime.now(clock.withZone(zone));
        String offset = t.getOffset().equals(ZoneOffset.UTC) ? "+00:00" : t.getOffset().getId();
        return t.format(FORMAT) + (zone.equals(UTC) ? " (UTC)" : " (" + zone.getId() + ", UTC" + offset + ")");
    }

    /** The zone a setting names; UTC for none. A bad name falls back to UTC too: the API refuses one before a run starts. */
    static ZoneId zone(Object setting) {
        if (setting instanceof String s && !s.isBlank()) {
            try {
                return ZoneId.of(s);
            } catch (DateTimeException bad) {
                return UTC;
            }
        }
        return UTC;
    }

    /** The problem with a {@code timezone} setting, or null when it is fine (for a graph's configuration check). */
    public static String checkZone(Object setting) {
        if (setting == null) {
            return null;
        }
        if (!(setting instanceof String s) || s.isBlank()) {
            return "timezone must be an IANA time zone name such as Europe/Paris";
        }
        try {
            ZoneId.of(s);
            return null;
        } catch (DateTimeException bad) {
            return "timezone " + s + " is not a known time zone (an IANA name such as Europe/Paris)";
        }
    }

    private static String lastUserText(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage u) {
                return u.content();
            }
        }
        return "";
    }
}
