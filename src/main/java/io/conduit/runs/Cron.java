package io.conduit.runs;

import io.conduit.auth.Principal;
import java.time.Instant;
import java.util.Map;

/**
 * A cron (LangGraph's): a run asked for on a schedule. {@code payload} is the run's request as the client gave it
 * (input, config, webhook...), submitted as is at each tick; {@code threadId} null: each tick runs on a new thread,
 * deleted or kept after the run as {@code onRunCompleted} says. {@code nextRunDate} null: no tick is left (past its
 * end time, or a schedule with no next date). {@code userId} names its owner (null in auth mode none), whose runs its
 * ticks are, and {@code ownerAdmin} whether that owner is an admin, both as they were at creation: a tick runs with
 * those privileges even if the owner was since demoted or its key revoked (docs/api.md, Crons).
 */
public record Cron(String cronId, String assistantId, String threadId, String schedule, String timezone, Instant endTime,
                   boolean enabled, Instant nextRunDate, String onRunCompleted, Map<String, Object> payload,
                   Map<String, Object> metadata, String userId, boolean ownerAdmin, Instant createdAt, Instant updatedAt) {

    public Cron {
        payload = payload == null ? Map.of() : payload;
        metadata = metadata == null ? Map.of() : metadata;
    }

    /** The principal its ticks' runs are submitted as: the one that created it. */
    public Principal owner() {
        return userId == null ? Principal.ANONYMOUS : Principal.user(userId, ownerAdmin);
    }

    /** Whether {@code caller} may see it: its owner, an admin, or anyone when ownership does not restrict the caller. */
    public boolean visibleTo(Principal caller) {
        return !caller.restricted() || caller.id().equals(userId);
    }

    /** The date of its first tick after {@code now}, within its end time; null when there is none. */
    public Instant nextAfter(Instant now) {
        Instant next = CronSchedule.of(schedule, timezone).nextAfter(now);
        return next == null || endTime != null && next.isAfter(endTime) ? null : next;
    }

    /** This cron with its next tick computed again from {@code now} (a new schedule, time zone or end), changed at {@code now}. */
    public Cron rescheduled(Instant now) {
        return new Cron(cronId, assistantId, threadId, schedule, timezone, endTime, enabled, nextAfter(now), onRunCompleted, payload,
                metadata, userId, ownerAdmin, createdAt, now);
    }

    /** This cron with {@code next} as its next tick (null: none), nothing else changed. */
    public Cron withNextRunDate(Instant next) {
        return new Cron(cronId, assistantId, threadId, schedule, timezone, endTime, enabled, next, onRunCompleted, payload,
                metadata, userId, ownerAdmin, createdAt, updatedAt);
    }

    /** This cron, its tick at {@code now} claimed: its next tick the first after {@code now} (missed ones are not caught up). */
    public Cron claimed(Instant now) {
        return withNextRunDate(nextAfter(now));
    }
}
