package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.ToolScope;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** {@code get_current_time}: the date and time, in a time zone the model may name. */
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
        return "The current date and time, in ISO-8601, in the given IANA time zone (default UTC).";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\",\"description\":\"IANA zone, e.g. Europe/Paris\"}},"
                + "\"additionalProperties\":false}";
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String zone = arguments.path("timezone").asText("UTC");
        try {
            return Uni.createFrom().item(ZonedDateTime.now(clock.withZone(ZoneId.of(zone))).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " (" + zone + ")");
        } catch (DateTimeException e) {
            return Uni.createFrom().failure(new IllegalArgumentException("unknown time zone " + zone));
        }
    }
}
