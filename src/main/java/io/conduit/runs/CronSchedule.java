package io.conduit.runs;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * A cron's schedule: a standard five-field cron expression (minute, hour, day of month, month, day of week, as
 * LangGraph's crons take) read in an IANA time zone (UTC when none is given), parsed by cron-utils. A schedule or
 * zone that does not parse is an {@link InvalidInputException} naming {@code schedule} or {@code timezone}.
 */
public final class CronSchedule {

    private static final CronDefinition UNIX = CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX);
    private static final CronParser PARSER = new CronParser(UNIX);
    /** Longest expression taken: a schedule is a few fields, never a document. */
    private static final int MAX_LENGTH = 256;

    private final ExecutionTime times;
    private final ZoneId zone;

    private CronSchedule(ExecutionTime times, ZoneId zone) {
        this.times = times;
        this.zone = zone;
    }

    /** The schedule of {@code expression} in {@code timezone} (null: UTC); throws InvalidInputException when either is bad. */
    public static CronSchedule of(String expression, String timezone) {
        ZoneId zone = zone(timezone);
        if (expression == null || expression.isBlank()) {
            throw new InvalidInputException("schedule", "is required: a cron expression of five fields, e.g. \"*/5 * * * *\"");
        }
        if (expression.length() > MAX_LENGTH) {
            throw new InvalidInputException("schedule", "is longer than " + MAX_LENGTH + " characters");
        }
        try {
            com.cronutils.model.Cron cron = PARSER.parse(expression.trim()).validate();
            return new CronSchedule(ExecutionTime.forCron(cron), zone);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("schedule", "is not a cron expression of five fields (minute hour day-of-month month "
                    + "day-of-week): " + e.getMessage());
        }
    }

    /** Checks a time zone name (null is UTC). */
    public static ZoneId zone(String timezone) {
        if (timezone == null) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw new InvalidInputException("timezone", "is not an IANA time zone (e.g. \"Europe/Paris\" or \"UTC\"): " + timezone);
        }
    }

    /** The first tick strictly after {@code after}; null when the schedule has none (e.g. the 30th of February). */
    public Instant nextAfter(Instant after) {
        return times.nextExecution(ZonedDateTime.ofInstant(after, zone)).map(ZonedDateTime::toInstant).orElse(null);
    }
}
