package io.conduit.runs.crons;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.auth.Principal;
import io.conduit.kernel.TimeOrderedIds;
import io.conduit.runs.Cron;
import io.conduit.runs.CronStore;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.SortOrder;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.submission.JsonFields;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What clients ask of crons: create (on a thread, or a new thread per tick), update, search, count, delete. Every
 * field is checked, and the assistant and thread resolved for the caller, before anything is stored. A cron is its
 * creator's: a restricted caller sees and changes only its own (another's is not found).
 */
public final class Crons {

    private final CronStore store;
    private final ThreadStore threads;
    private final Assistants assistants;
    private final CronRequests requests;
    private final Clock clock;

    public Crons(CronStore store, ThreadStore threads, Assistants assistants, CronRequests requests, Clock clock) {
        this.store = store;
        this.threads = threads;
        this.assistants = assistants;
        this.requests = requests;
        this.clock = clock;
    }

    /** A new cron; {@code threadId} null: each tick runs on a new thread ({@code on_run_completed} says if it is kept). */
    public Uni<Cron> create(String threadId, JsonNode raw, Principal caller) {
        return Uni.createFrom().deferred(() -> {
            JsonNode body = JsonFields.body(raw);
            String assistantRef = JsonFields.text(body, "assistant_id");
            if (assistantRef == null) {
                throw new InvalidInputException("assistant_id", "is required");
            }
            String schedule = JsonFields.text(body, "schedule");
            String timezone = JsonFields.text(body, "timezone");
            CronRequests.schedule(schedule, timezone);
            Instant endTime = CronRequests.endTime(body);
            boolean enabled = JsonFields.bool(body, "enabled", true);
            String onRunCompleted = JsonFields.oneOf(body, "on_run_completed", null, "delete", "keep");
            if (threadId != null && onRunCompleted != null) {
                throw new InvalidInputException("on_run_completed", "is for a cron without a thread (each tick's new thread)");
            }
            Map<String, Object> metadata = JsonFields.object(body, "metadata");
            Map<String, Object> payload = requests.payload(body, Map.of(), CronRequests.RUN_FIELDS);
            Uni<Void> thread = threadId == null ? Uni.createFrom().voidItem() : visibleThread(threadId, caller);
            return thread.chain(() -> assistants.resolve(assistantRef, caller)).chain(assistant -> {
                Instant now = clock.instant();
                Cron cron = new Cron(TimeOrderedIds.next(), assistant.assistantId(), threadId, schedule.trim(), timezone, endTime,
                        enabled, null, threadId == null ? (onRunCompleted == null ? "delete" : onRunCompleted) : null, payload,
                        metadata, caller.anonymous() ? null : caller.id(), caller.admin() && !caller.anonymous(), now, now)
                        .rescheduled(now);
                return store.create(cron);
            });
        });
    }

    /**
     * Changes the fields given (the rest stay), read and written at once by the store (no tick claimed in between is
     * undone). The next tick is computed again from now only when the schedule, time zone or end time changed or the
     * cron is enabled again; else the stored one stays (moving it back would run a tick just claimed twice).
     */
    public Uni<Cron> update(String cronId, JsonNode raw, Principal caller) {
        return Uni.createFrom().deferred(() -> {
            JsonNode body = JsonFields.body(raw);
            return get(cronId, caller).chain(() -> store.update(cronId, c -> changed(c, body)))
                    .map(u -> u.orElseThrow(() -> notFound(cronId)));
        });
    }

    private Cron changed(Cron c, JsonNode body) {
        String schedule = body.hasNonNull("schedule") ? JsonFields.text(body, "schedule") : c.schedule();
        String timezone = body.has("timezone") ? JsonFields.text(body, "timezone") : c.timezone();
        CronRequests.schedule(schedule, timezone);
        Instant endTime = body.has("end_time") ? CronRequests.endTime(body) : c.endTime();
        boolean enabled = JsonFields.bool(body, "enabled", c.enabled());
        String onRunCompleted = JsonFields.oneOf(body, "on_run_completed", c.onRunCompleted(), "delete", "keep");
        if (c.threadId() != null && body.hasNonNull("on_run_completed")) {
            throw new InvalidInputException("on_run_completed", "is for a cron without a thread (each tick's new thread)");
        }
        Map<String, Object> metadata = body.hasNonNull("metadata") ? JsonFields.object(body, "metadata") : c.metadata();
        Map<String, Object> payload = requests.payload(body, c.payload(), CronRequests.UPDATABLE_RUN_FIELDS);
        Instant now = clock.instant();
        Cron changed = new Cron(c.cronId(), c.assistantId(), c.threadId(), schedule.trim(), timezone, endTime, enabled,
                c.nextRunDate(), onRunCompleted, payload, metadata, c.userId(), c.ownerAdmin(), c.createdAt(), now);
        boolean reschedule = !changed.schedule().equals(c.schedule()) || !Objects.equals(timezone, c.timezone())
                || !Objects.equals(endTime, c.endTime()) || enabled && !c.enabled();
        return reschedule ? changed.rescheduled(now) : changed;
    }

    /** The cron, when the caller may see it; else NotFoundException. */
    public Uni<Cron> get(String cronId, Principal caller) {
        if (!InputText.isId(cronId)) {
            return Uni.createFrom().failure(notFound(cronId));
        }
        return store.get(cronId).map(c -> c.filter(x -> x.visibleTo(caller)).orElseThrow(() -> notFound(cronId)));
    }

    public Uni<Void> delete(String cronId, Principal caller) {
        return get(cronId, caller).chain(c -> store.delete(cronId)).invoke(deleted -> {
            if (!deleted) {
                throw notFound(cronId);
            }
        }).replaceWithVoid();
    }

    public Uni<List<Cron>> search(JsonNode raw, Principal caller) {
        return Uni.createFrom().deferred(() -> {
            JsonNode body = JsonFields.body(raw);
            CronStore.Query q = query(body, caller, true);
            int limit = JsonFields.integer(body, "limit", 10, 1, 1000);
            int offset = JsonFields.integer(body, "offset", 0, 0, Integer.MAX_VALUE - 1000);
            SortOrder sort = SortOrder.checked(JsonFields.text(body, "sort_by"), JsonFields.text(body, "sort_order"), CronStore.SORTS);
            return store.search(q, sort, limit, offset);
        });
    }

    public Uni<Long> count(JsonNode raw, Principal caller) {
        return Uni.createFrom().deferred(() -> store.count(query(JsonFields.body(raw), caller, false)));
    }

    private static CronStore.Query query(JsonNode body, Principal caller, boolean withEnabled) {
        Boolean enabled = withEnabled && body.hasNonNull("enabled") ? JsonFields.bool(body, "enabled", true) : null;
        Map<String, Object> metadata = JsonFields.object(body, "metadata");
        return new CronStore.Query(JsonFields.text(body, "assistant_id"), JsonFields.text(body, "thread_id"), enabled,
                metadata.isEmpty() ? null : metadata, caller.restricted() ? caller.id() : null);
    }

    /** A cron's thread must exist and be the caller's to see. */
    private Uni<Void> visibleThread(String threadId, Principal caller) {
        if (!InputText.isId(threadId)) {
            return Uni.createFrom().failure(new NotFoundException("Thread " + threadId + " not found"));
        }
        return threads.get(threadId).invoke(t -> {
            if (t.isEmpty() || !caller.sees(t.get().metadata())) {
                throw new NotFoundException("Thread " + threadId + " not found");
            }
        }).replaceWithVoid();
    }

    private static NotFoundException notFound(String cronId) {
        return new NotFoundException("Cron " + cronId + " not found");
    }
}
