package io.conduit.runs.memory;

import io.conduit.runs.Cron;
import io.conduit.runs.CronClaim;
import io.conduit.runs.CronStore;
import io.conduit.runs.SortOrder;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** Crons in memory: one lock over them all, so a due cron is claimed by one claimer, as Postgres' SKIP LOCKED does. */
public final class InMemoryCronStore implements CronStore {

    private final Map<String, Cron> crons = new HashMap<>();

    @Override
    public synchronized Uni<Cron> create(Cron cron) {
        crons.put(cron.cronId(), cron);
        return Uni.createFrom().item(cron);
    }

    @Override
    public synchronized Uni<Optional<Cron>> get(String cronId) {
        return Uni.createFrom().item(Optional.ofNullable(crons.get(cronId)));
    }

    @Override
    public synchronized Uni<Optional<Cron>> update(String cronId, UnaryOperator<Cron> change) {
        Cron current = crons.get(cronId);
        if (current == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        try {
            Cron changed = change.apply(current); // under the lock: no claim between the read and the write
            crons.put(cronId, changed);
            return Uni.createFrom().item(Optional.of(changed));
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(e);
        }
    }

    @Override
    public synchronized Uni<Boolean> delete(String cronId) {
        return Uni.createFrom().item(crons.remove(cronId) != null);
    }

    @Override
    public synchronized Uni<Integer> deleteForThread(String threadId) {
        int before = crons.size();
        crons.values().removeIf(c -> threadId.equals(c.threadId()));
        return Uni.createFrom().item(before - crons.size());
    }

    @Override
    public synchronized Uni<List<Cron>> search(Query query, SortOrder sort, int limit, int offset) {
        Comparator<Cron> ascending = Comparator.comparing(key(sort.column()), Comparator.nullsLast(Comparator.naturalOrder()));
        List<Cron> found = crons.values().stream().filter(c -> matches(c, query))
                .sorted(sort.apply(ascending.thenComparing(Cron::cronId))).skip(offset).limit(limit).toList();
        return Uni.createFrom().item(found);
    }

    @Override
    public synchronized Uni<Long> count(Query query) {
        return Uni.createFrom().item(crons.values().stream().filter(c -> matches(c, query)).count());
    }

    @Override
    public synchronized Uni<List<Cron>> claimDue(Instant now, int limit) {
        List<Cron> claimed = new ArrayList<>();
        List<Cron> due = crons.values().stream()
                .filter(c -> c.enabled() && c.nextRunDate() != null && !c.nextRunDate().isAfter(now))
                .sorted(Comparator.comparing(Cron::nextRunDate)).limit(limit).toList();
        for (Cron c : due) {
            CronClaim claim = CronClaim.of(c, now);
            crons.put(c.cronId(), claim.cron());
            if (claim.runs()) {
                claimed.add(claim.cron());
            }
        }
        return Uni.createFrom().item(claimed);
    }

    private static boolean matches(Cron c, Query q) {
        return (q.assistantId() == null || q.assistantId().equals(c.assistantId()))
                && (q.threadId() == null || q.threadId().equals(c.threadId()))
                && (q.enabled() == null || q.enabled() == c.enabled())
                && (q.userId() == null || q.userId().equals(c.userId()))
                && (q.metadata() == null || JsonContainment.matches(c.metadata(), q.metadata()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Function<Cron, Comparable> key(String column) {
        return switch (column) {
            case "cron_id" -> Cron::cronId;
            case "assistant_id" -> Cron::assistantId;
            case "thread_id" -> Cron::threadId;
            case "updated_at" -> Cron::updatedAt;
            case "next_run_date" -> Cron::nextRunDate;
            default -> Cron::createdAt;
        };
    }
}
