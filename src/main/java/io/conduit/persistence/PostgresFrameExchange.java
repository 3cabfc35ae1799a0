package io.conduit.persistence;

import io.conduit.runs.cluster.FrameExchange;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.TextDelta;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.pubsub.PgChannel;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@link FrameExchange} on PostgreSQL: frames in {@code conduit_event_frames} (one multi-row insert per batch, which
 * also sends the {@code NOTIFY} naming its threads), watches in {@code conduit_event_watches}, and the wake-ups
 * received on a connection of their own ({@link PgSubscriber}, which reconnects by itself).
 */
public final class PostgresFrameExchange implements FrameExchange {

    static final String FRAMES_CHANNEL = "conduit_frames";
    static final String WATCH_CHANNEL = "conduit_watches";
    static final String CLAIMS_CHANNEL = "conduit_claims";
    /** The characters of thread ids one NOTIFY names: its payload is limited to 8,000 bytes. */
    private static final int NOTIFY_CHARS = 6_000;
    /** The key of the advisory lock the appends hold (the run store's locks on threads have one key, not two). */
    private static final int LOCK_CLASS = 22;

    /**
     * The rows, in order, and the NOTIFY naming their threads ({@code *} when too many to fit: then every watcher
     * reads). A thread's rows are read by {@code id > last id read}, so ids must commit in the order they are drawn:
     * every append holds one lock from before its ids are drawn to its commit. One lock, not one per thread: a process
     * writes one batch at a time, so it orders only the processes' batches, and a batch may hold a thousand threads.
     */
    private static final String APPEND = """
            WITH locked AS (
              SELECT pg_advisory_xact_lock(%d, 0) AS n
            ), ins AS (
              INSERT INTO conduit_event_frames (thread_id, run_id, format, origin, seq, mode, ns, data, text_key, text_start, text_end)
              SELECT r.thread_id, r.run_id, r.format, r.origin, r.seq, r.mode, r.ns, r.data, r.text_key, r.text_start, r.text_end
              FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[],
                          $9::text[], $10::int[], $11::int[]) WITH ORDINALITY
                   AS r(thread_id, run_id, format, origin, seq, mode, ns, data, text_key, text_start, text_end, n)
              CROSS JOIN locked
              ORDER BY r.n
              ON CONFLICT (thread_id, format, seq) WHERE seq >= 0 DO NOTHING
              RETURNING id, thread_id)
            SELECT pg_notify('conduit_frames', $4[1] || ' ' || first_id || ' ' || last_id || E'\\n'
                                               || CASE WHEN length(names) <= %d THEN names ELSE '*' END)
            FROM (SELECT min(id) AS first_id, max(id) AS last_id, string_agg(DISTINCT thread_id, E'\\n') AS names
                  FROM ins HAVING count(*) > 0) AS batch""".formatted(LOCK_CLASS, NOTIFY_CHARS);
    /** Per watched thread, its newest id and its rows after the cursor: one index probe and one range per thread. */
    private static final String AFTER = """
            SELECT w.thread_id AS watched, n.newest, f.id, f.thread_id, f.run_id, f.format, f.origin, f.seq, f.mode, f.ns,
                   f.data, f.text_key, f.text_start, f.text_end
            FROM unnest($1::text[], $2::bigint[]) AS w(thread_id, last_id)
            CROSS JOIN LATERAL (SELECT coalesce(max(m.id), 0) AS newest FROM conduit_event_frames m
                                WHERE m.thread_id = w.thread_id) AS n
            LEFT JOIN LATERAL (SELECT * FROM conduit_event_frames r WHERE r.thread_id = w.thread_id AND r.id > w.last_id
                               ORDER BY r.id LIMIT $3) AS f ON true
            ORDER BY f.id""";

    /**
     * The processes' rows after the last one read of each, in id order: an ordered walk of an index per process that
     * stops at the limit, so a read costs the rows it returns, however far behind it is. Not filtered by thread here:
     * matching each row against a thousand watched threads cost more than the rows (the watcher drops the few it does
     * not watch).
     */
    private static final String SINCE = """
            SELECT f.id, f.thread_id, f.run_id, f.format, f.origin, f.seq, f.mode, f.ns, f.data, f.text_key, f.text_start,
                   f.text_end
            FROM unnest($1::text[], $2::bigint[]) AS o(origin, last_id)
            CROSS JOIN LATERAL (SELECT * FROM conduit_event_frames r WHERE r.origin = o.origin AND r.id > o.last_id
                                ORDER BY r.id LIMIT $3) AS f
            ORDER BY f.id""";

    private final Pool pool;
    private final PgSubscriber subscriber;
    /** The wake-ups' channel: one object, for its handler and its (re)subscription's. */
    private final PgChannel frames;

    public PostgresFrameExchange(Pool pool, PgSubscriber subscriber) {
        this.pool = pool;
        this.subscriber = subscriber;
        this.frames = subscriber.channel(FRAMES_CHANNEL);
    }

    @Override
    public Uni<Void> append(List<Frame> frames) {
        int n = frames.size();
        String[] threads = new String[n], runs = new String[n], formats = new String[n], origins = new String[n];
        Long[] seqs = new Long[n];
        String[] modes = new String[n], nss = new String[n], data = new String[n], keys = new String[n];
        Integer[] starts = new Integer[n], ends = new Integer[n];
        for (int i = 0; i < n; i++) {
            Frame f = frames.get(i);
            RunEvent e = f.event();
            threads[i] = f.threadId();
            formats[i] = f.format();
            origins[i] = f.origin();
            if (e == null) {
                runs[i] = f.endedRunId();
                seqs[i] = -1L;
                continue;
            }
            runs[i] = e.runId();
            seqs[i] = e.seq();
            modes[i] = e.mode();
            nss[i] = e.ns();
            data[i] = e.data();
            if (e.text() != null) {
                keys[i] = e.text().key();
                starts[i] = e.text().start();
                ends[i] = e.text().end();
            }
        }
        Tuple args = Tuple.tuple().addArrayOfString(threads).addArrayOfString(runs).addArrayOfString(formats)
                .addArrayOfString(origins).addArrayOfLong(seqs).addArrayOfString(modes).addArrayOfString(nss)
                .addArrayOfString(data).addArrayOfString(keys).addArrayOfInteger(starts).addArrayOfInteger(ends);
        return pool.preparedQuery(APPEND).execute(args).replaceWithVoid();
    }

    @Override
    public Uni<Rows> after(List<Cursor> cursors, int limit) {
        Tuple args = Tuple.of(cursors.stream().map(Cursor::threadId).toArray(String[]::new),
                cursors.stream().map(Cursor::afterId).toArray(Long[]::new), limit);
        return pool.preparedQuery(AFTER).execute(args).map(rows -> {
            List<Frame> frames = new ArrayList<>(rows.size());
            Map<String, Long> newest = new HashMap<>();
            for (Row r : rows) {
                newest.put(r.getString("watched"), r.getLong("newest"));
                if (r.getValue("id") != null) {
                    frames.add(frame(r));
                }
            }
            return new Rows(frames, newest);
        });
    }

    @Override
    public Uni<List<Frame>> since(Map<String, Long> since, int limit) {
        List<String> origins = List.copyOf(since.keySet());
        Tuple args = Tuple.of(origins.toArray(String[]::new), origins.stream().map(since::get).toArray(Long[]::new), limit);
        return pool.preparedQuery(SINCE).execute(args).map(rows -> {
            List<Frame> out = new ArrayList<>(rows.size());
            for (Row r : rows) {
                out.add(frame(r));
            }
            return out;
        });
    }

    private static Frame frame(Row r) {
        long seq = r.getLong("seq");
        String thread = r.getString("thread_id");
        String origin = r.getString("origin");
        if (seq < 0) {
            return new Frame(r.getLong("id"), thread, "", origin, null, r.getString("run_id"));
        }
        String key = r.getString("text_key");
        TextDelta text = key == null ? null : new TextDelta(key, r.getInteger("text_start"), r.getInteger("text_end"));
        RunEvent e = new RunEvent(seq, r.getString("run_id"), r.getString("mode"), r.getString("ns"), r.getString("data"), text);
        return new Frame(r.getLong("id"), thread, r.getString("format"), origin, e, null);
    }

    @Override
    public Uni<Void> watch(Watch w, Duration ttl) {
        return pool.preparedQuery("""
                        WITH up AS (
                          INSERT INTO conduit_event_watches (thread_id, format, origin, expires_at)
                          VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
                          ON CONFLICT (thread_id, format, origin) DO UPDATE SET expires_at = excluded.expires_at
                          RETURNING 1)
                        SELECT pg_notify('conduit_watches', $1 || E'\\n' || $2 || E'\\n' || $3) FROM up""")
                .execute(Tuple.of(w.threadId(), w.format(), w.origin(), ttl.toMillis())).replaceWithVoid();
    }

    @Override
    public Uni<Void> renew(List<Watch> held, List<Watch> gone, Duration ttl) {
        Uni<?> drop = gone.isEmpty() ? Uni.createFrom().voidItem() : pool.preparedQuery("""
                        DELETE FROM conduit_event_watches w
                        USING unnest($1::text[], $2::text[], $3::text[]) AS g(thread_id, format, origin)
                        WHERE w.thread_id = g.thread_id AND w.format = g.format AND w.origin = g.origin""")
                .execute(columns(gone));
        // a watch recorded again (lost: a database crash empties the unlogged table) wakes the owners as a new one
        // does, so that a relay stopped meanwhile starts again now rather than at its owner's next reload
        return drop.chain(() -> held.isEmpty() ? Uni.createFrom().voidItem() : pool.preparedQuery("""
                        WITH up AS (
                          INSERT INTO conduit_event_watches (thread_id, format, origin, expires_at)
                          SELECT thread_id, format, origin, now() + $4 * interval '1 millisecond'
                          FROM unnest($1::text[], $2::text[], $3::text[]) AS h(thread_id, format, origin)
                          ON CONFLICT (thread_id, format, origin) DO UPDATE SET expires_at = excluded.expires_at
                          RETURNING thread_id, format, origin, xmax = 0 AS inserted)
                        SELECT pg_notify('conduit_watches', thread_id || E'\\n' || format || E'\\n' || origin) FROM up WHERE inserted""")
                .execute(columns(held).addLong(ttl.toMillis()))).replaceWithVoid();
    }

    private static Tuple columns(List<Watch> watches) {
        return Tuple.of(watches.stream().map(Watch::threadId).toArray(String[]::new),
                watches.stream().map(Watch::format).toArray(String[]::new),
                watches.stream().map(Watch::origin).toArray(String[]::new));
    }

    @Override
    public Uni<List<Watch>> watches() {
        return pool.preparedQuery("SELECT thread_id, format, origin FROM conduit_event_watches WHERE expires_at > now()").execute()
                .map(rows -> {
                    List<Watch> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new Watch(r.getString("thread_id"), r.getString("format"), r.getString("origin")));
                    }
                    return out;
                });
    }

    @Override
    public Uni<Integer> expire(Duration retention) {
        return pool.preparedQuery("DELETE FROM conduit_event_watches WHERE expires_at < now()").execute()
                .chain(() -> pool.preparedQuery("DELETE FROM conduit_event_frames WHERE created_at < now() - $1 * interval '1 millisecond'")
                        .execute(Tuple.of(retention.toMillis())))
                .map(rows -> rows.rowCount());
    }

    @Override
    public Uni<Void> claimed(String threadId, String runId, String origin) {
        return pool.preparedQuery("SELECT pg_notify('" + CLAIMS_CHANNEL + "', $1)")
                .execute(Tuple.of(threadId + "\n" + runId + "\n" + origin)).replaceWithVoid();
    }

    @Override
    public void onClaimed(Consumer<Claim> claim) {
        subscriber.channel(CLAIMS_CHANNEL).handler(payload -> {
            String[] parts = payload.split("\n", 3);
            if (parts.length == 3) {
                claim.accept(new Claim(parts[0], parts[1], parts[2]));
            }
        });
    }

    @Override
    public void onResumed(Runnable resumed) {
        frames.subscribeHandler(resumed);
    }

    @Override
    public void onAppended(Consumer<Appended> batch) {
        frames.handler(payload -> {
            String[] lines = payload.split("\n");
            String[] head = lines[0].split(" ");
            if (head.length == 3) {
                List<String> threads = lines.length == 2 && lines[1].equals("*") ? null : Arrays.asList(lines).subList(1, lines.length);
                batch.accept(new Appended(head[0], Long.parseLong(head[1]), Long.parseLong(head[2]), threads));
            }
        });
    }

    @Override
    public void onWatch(Consumer<Watch> watch) {
        subscriber.channel(WATCH_CHANNEL).handler(payload -> {
            String[] parts = payload.split("\n", 3);
            if (parts.length == 3) {
                watch.accept(new Watch(parts[0], parts[1], parts[2]));
            }
        });
    }
}
