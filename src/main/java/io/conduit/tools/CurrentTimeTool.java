package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.Locale;

/** {@code get_current_time}: the date and time, in an IANA time zone the model may name (UTC by default). */
@ApplicationScoped
public class CurrentTimeTool implements Tool {

    private final Clock clock;

    public CurrentTimeTool() {
        this(Clock.systemUTC());
    }

    CurrentTimeTool(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "get_current_time";
    }

    @Override
    public String description() {
        return "The current date and time (ISO-8601, with the day of the week) in an IANA time zone, UTC by default.";
    }

    @Override
    public String parametersSchema() {
        return """
                {"type":"object","properties":{"timezone":{"type":"string","description":"IANA time zone, e.g. Europe/Paris"}},\
                "additionalProperties":false}""";
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String zone = arguments.path("timezone").asText("UTC");
        ZoneId id;
        try {
            id = ZoneId.of(zone);
        } catch (DateTimeException e) {
            return Uni.createFrom().failure(new IllegalArgumentException("unknown time zone " + zone + " (use an IANA name such as Europe/Paris)"));
        }
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(id));
        // the weekday too: models get it wrong when they have to work it out from the date
        return Uni.createFrom().item(now.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " ("
                + now.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + ", " + id.getId() + ")");
    }
}
