package io.conduit.runs.crons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.CronSchedule;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.RunSpecJson;
import io.conduit.runs.submission.JsonFields;
import io.conduit.runs.submission.WebhookTargets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A cron request's body read and checked, field by field, before anything is stored: its schedule and zone, its end,
 * and the run it asks for at each tick (the payload, checked as a run's request is).
 */
final class CronRequests {

    /** The fields of a cron's body that are its runs' request, kept as the payload and submitted at each tick. */
    static final Set<String> RUN_FIELDS = Set.of("input", "config", "context", "interrupt_before", "interrupt_after", "webhook",
            "multitask_strategy", "checkpoint_during", "durability", "stream_mode", "stream_subgraphs", "stream_resumable",
            "if_not_exists");
    /** The run fields a PATCH may change (LangGraph's CronsUpdatePayload). */
    static final Set<String> UPDATABLE_RUN_FIELDS = Set.of("input", "config", "context", "webhook", "interrupt_before",
            "interrupt_after", "stream_mode", "stream_subgraphs", "stream_resumable", "durability");

    private final WebhookTargets webhooks;

    CronRequests(WebhookTargets webhooks) {
        this.webhooks = webhooks;
    }

    /** The run fields of {@code body} that were given (not null), over {@code base}; checked as a run's request. */
    Map<String, Object> payload(JsonNode body, Map<String, Object> base, Set<String> fields) {
        Map<String, Object> payload = new LinkedHashMap<>(base);
        body.properties().forEach(e -> {
            if (fields.contains(e.getKey()) && !e.getValue().isNull()) {
                payload.put(e.getKey(), JsonCodec.MAPPER.convertValue(e.getValue(), Object.class));
            }
        });
        ObjectNode asRun = JsonCodec.MAPPER.valueToTree(payload);
        RunSpecJson.fromRequest(asRun); // throws on a field a run would refuse
        webhooks.check(payload.get("webhook"));
        if (payload.get("multitask_strategy") instanceof String s) {
            try {
                MultitaskStrategy.of(s);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("multitask_strategy", "must be one of reject, enqueue, interrupt, rollback");
            }
        } else if (payload.containsKey("multitask_strategy")) {
            throw new InvalidInputException("multitask_strategy", "must be a string");
        }
        JsonFields.oneOf(asRun, "if_not_exists", null, "reject", "create");
        JsonFields.bool(asRun, "stream_subgraphs", false);
        JsonFields.bool(asRun, "stream_resumable", false);
        JsonFields.bool(asRun, "checkpoint_during", false);
        boolean configurable = asRun.path("config").has("configurable");
        if (configurable && asRun.hasNonNull("context")) {
            throw new InvalidInputException("context", "send config.configurable or context, not both");
        }
        return payload;
    }

    /** {@code end_time}: an ISO-8601 date and time with its offset; absent or null: none. */
    static Instant endTime(JsonNode body) {
        String v = JsonFields.text(body, "end_time");
        if (v == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(v);
            } catch (DateTimeParseException again) {
                throw new InvalidInputException("end_time", "must be an ISO-8601 date and time with an offset, e.g. 2030-01-01T00:00:00Z");
            }
        }
    }

    /** {@code schedule} and {@code timezone} checked together (a schedule is read in its zone). */
    static void schedule(String schedule, String timezone) {
        CronSchedule.of(schedule, timezone);
    }
}
