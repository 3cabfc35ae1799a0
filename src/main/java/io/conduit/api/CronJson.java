package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Cron;
import io.conduit.runs.InvalidInputException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A cron as LangGraph's API answers it ({@code Cron} in the SDK's schema), all of it or the fields a search selects. */
final class CronJson {

    /** LangGraph's CronSelectField. */
    static final Set<String> FIELDS = Set.of("cron_id", "assistant_id", "thread_id", "end_time", "schedule", "created_at",
            "updated_at", "user_id", "payload", "next_run_date", "metadata", "now", "timezone", "enabled", "on_run_completed");

    private CronJson() {
    }

    static ObjectNode cron(Cron c) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("cron_id", c.cronId()).put("assistant_id", c.assistantId())
                .put("thread_id", c.threadId()).put("schedule", c.schedule()).put("timezone", c.timezone())
                .put("end_time", iso(c.endTime())).put("enabled", c.enabled()).put("next_run_date", iso(c.nextRunDate()))
                .put("user_id", c.userId()).put("created_at", iso(c.createdAt())).put("updated_at", iso(c.updatedAt()));
        if (c.threadId() == null) {
            o.put("on_run_completed", c.onRunCompleted());
        }
        o.set("payload", JsonCodec.MAPPER.valueToTree(c.payload()));
        o.set("metadata", JsonCodec.MAPPER.valueToTree(c.metadata()));
        return o;
    }

    /** The crons, each with only the {@code select}ed fields when the search names some. */
    static ArrayNode crons(List<Cron> crons, JsonNode select, Instant now) {
        Set<String> fields = select(select);
        ArrayNode out = JsonCodec.MAPPER.createArrayNode();
        for (Cron c : crons) {
            ObjectNode full = cron(c);
            if (fields == null) {
                out.add(full);
                continue;
            }
            ObjectNode picked = out.addObject();
            for (String f : fields) {
                if (f.equals("now")) {
                    picked.put("now", now.toString());
                } else {
                    picked.set(f, full.has(f) ? full.get(f) : JsonCodec.MAPPER.nullNode());
                }
            }
        }
        return out;
    }

    /** {@code select}: null (everything) when absent; else names from {@link #FIELDS}. */
    static Set<String> select(JsonNode select) {
        if (select == null || select.isNull()) {
            return null;
        }
        if (!select.isArray()) {
            throw new InvalidInputException("select", "must be an array of field names");
        }
        Set<String> fields = new LinkedHashSet<>();
        for (JsonNode f : select) {
            if (!f.isTextual() || !FIELDS.contains(f.textValue())) {
                throw new InvalidInputException("select", "names one of " + String.join(", ", new java.util.TreeSet<>(FIELDS)));
            }
            fields.add(f.textValue());
        }
        return fields.isEmpty() ? null : fields;
    }

    private static String iso(Instant t) {
        return t == null ? null : t.toString();
    }
}
