package io.conduit.bench;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.ForwardingCheckpointer;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.checkpoint.Stored;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Durability;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.RunRequest;
import io.conduit.persistence.PostgresCheckpointer;
import io.conduit.persistence.TestDatabase;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine and checkpoint benchmark (a harness, not a test): the pipeline shape of the LangGraph.js peer, on the
 * in-memory and the Postgres store. Run with {@code ./mvnw -Pbench test-compile exec:java}; options:
 * {@code -Dbench.only=memory|postgres}, {@code -Dbench.runs=N} (fresh-thread turns), {@code -Dbench.turns=400},
 * {@code -Dbench.concurrency=64}, {@code -Dbench.db=conduit_bench}; {@code -Dbench.only=postgres-long} runs only the
 * long thread on Postgres (its per-turn p50, p99 and maximum, and what the slowest turns spent in GC);
 * {@code -Dbench.only=postgres-concurrent} only the threads at once ({@code -Dbench.pool=16} connections,
 * {@code -Dbench.concurrentTurns=40} turns each, {@code -Dbench.pipelining=N} to pipeline up to N statements per
 * connection). Postgres
 * figures use a database of their own ({@code bench.db}), dropped and made anew at each run so the sizes it reports are
 * this workload's alone.
 */
public final class EngineBenchmark {

    private static final String DB = System.getProperty("bench.db", "conduit_bench");
    private static final List<String> REPORT = new ArrayList<>();

    private EngineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String only = System.getProperty("bench.only", "all");
        int runs = Integer.getInteger("bench.runs", 20_000);
        int turns = Integer.getInteger("bench.turns", 400);
        int concurrency = Integer.getInteger("bench.concurrency", 64);
        line("machine: %d cores, %s, Java %s", Runtime.getRuntime().availableProcessors(), System.getProperty("os.arch"),
                System.getProperty("java.version"));
        if (only.equals("all") || only.equals("memory")) {
            freshThreads("memory", () -> new InMemoryCheckpointer(), Durability.SYNC, runs / 2, runs);
            longThread("memory", new InMemoryCheckpointer(), turns, null);
        }
        if (!only.equals("memory")) {
            recreateDatabase();
            Pool pool = TestDatabase.open(DB, Integer.getInteger("bench.pool", 16));
            PostgresCheckpointer store = new PostgresCheckpointer(pool);
            if (only.equals("postgres-concurrent")) {
                int pipelining = Integer.getInteger("bench.pipelining", 0);
                // statements pipelined on the connections, rather than one at a time on each
                PostgresCheckpointer measured = pipelining == 0 ? store
                        : new PostgresCheckpointer(TestDatabase.pipelinedClient(DB, Integer.getInteger("bench.pool", 16), pipelining));
                int turnsEach = Integer.getInteger("bench.concurrentTurns", 40);
                concurrent(measured, concurrency, turnsEach);
                concurrent(measured, concurrency, turnsEach);
                summary();
            }
            long text = longThread("postgres/sync", store, turns, pool);
            if (only.equals("postgres-long")) {
                summary();
            }
            long onDisk = tableBytes(pool);
            line("postgres: %d turns on one thread left %,d bytes on disk (tables, indexes, TOAST) for %,d bytes of message text (%.1fx)",
                    turns, onDisk, text, (double) onDisk / text);
            pool.query("VACUUM FULL").execute().await().indefinitely();
            long live = tableBytes(pool);
            line("postgres: after VACUUM FULL (what the thread holds, without dead rows): %,d bytes (%.1fx the text)", live, (double) live / text);
            for (Row r : pool.query("SELECT relname, pg_total_relation_size(oid)::bigint AS total, pg_relation_size(oid)::bigint AS heap, "
                    + "(SELECT count(*) FROM conduit_checkpoints)::bigint AS rows FROM pg_class WHERE relname LIKE 'conduit\\_%' AND relkind = 'r' ORDER BY 1")
                    .execute().await().indefinitely()) {
                line("postgres:   %s: %,d bytes (heap %,d)", r.getString(0), r.getLong(1), r.getLong(2));
            }
            if (only.equals("postgres-size")) {
                System.exit(0);
            }
            freshThreads("postgres/sync", () -> store, Durability.SYNC, 200, 2_000);
            freshThreads("postgres/async", () -> store, Durability.ASYNC, 200, 2_000);
            concurrent(store, concurrency, 40);
        }
        summary();
    }

    private static void summary() {
        System.out.println();
        System.out.println("## Summary");
        REPORT.forEach(System.out::println);
        System.exit(0);
    }

    /** One turn on a fresh thread each time: µs per node step, the peer's {@code RUNS=N node bench.mjs}. */
    private static void freshThreads(String label, java.util.function.Supplier<Checkpointer> store, Durability durability, int warmup, int runs) {
        CompiledGraph graph = PipelineShape.compile(GraphOptions.with(store.get()));
        for (int i = 0; i < warmup; i++) {
            turn(graph, RunRequest.on("w-" + UUID.randomUUID()).durability(durability).input(PipelineShape.input(0)));
        }
        long steps = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            steps += turn(graph, RunRequest.on("f-" + UUID.randomUUID()).durability(durability).input(PipelineShape.input(0)));
        }
        double us = (System.nanoTime() - t0) / 1e3 / steps;
        line("%s: fresh threads, %d turns, %d steps: %.1f µs per step (%.0f steps/s on one client)", label, runs, steps, us, 1e6 / us);
    }

    /** One thread of many turns: ms per turn early and late, bytes per step; returns the bytes of message text. */
    private static long longThread(String label, Checkpointer base, int turns, Pool pool) {
        Measuring store = new Measuring(base);
        CompiledGraph graph = PipelineShape.compile(options(store));
        // a warm-up thread of its own, so the early turns measured below run on compiled code, not the interpreter
        String warm = "warm-" + UUID.randomUUID();
        for (int t = 0; t < Math.min(turns, 100); t++) {
            turn(graph, RunRequest.on(warm).input(PipelineShape.input(t)));
        }
        if (pool != null) {
            // the size reported afterwards is the measured thread's alone
            pool.query("TRUNCATE conduit_threads, conduit_checkpoints, conduit_snapshots, conduit_writes").execute().await().indefinitely();
        }
        System.gc();
        String thread = "long-" + UUID.randomUUID();
        double[] ms = new double[turns];
        long[] gcMs = new long[turns];
        long[] payload = new long[turns];
        long[] steps = new long[turns];
        long[] wal = new long[turns + 1];
        long text = 0;
        int coldAt = Math.min(20, turns);
        for (int t = 0; t < turns; t++) {
            if (t == coldAt) {
                cold(label, base, thread, t);
            }
            long p0 = store.bytes.get();
            if (pool != null) {
                wal[t] = walPosition(pool);
            }
            long gc0 = gcMillis();
            long t0 = System.nanoTime();
            steps[t] = turn(graph, RunRequest.on(thread).input(PipelineShape.input(t)));
            ms[t] = (System.nanoTime() - t0) / 1e6;
            gcMs[t] = gcMillis() - gc0;
            payload[t] = store.bytes.get() - p0;
            text += PipelineShape.textBytes(t, t % 2 == 0);
        }
        if (pool != null) {
            wal[turns] = walPosition(pool);
        }
        cold(label, base, thread, turns);
        int from = Math.min(10, turns), to = Math.min(30, turns), lateFrom = Math.max(0, turns - 20);
        double early = avg(ms, from, to), late = avg(ms, lateFrom, turns);
        line("%s: one thread of %d turns: %.3f ms per turn at turns %d-%d, %.3f ms at turns %d-%d (%.2fx)",
                label, turns, early, from, to, late, lateFrom, turns, late / early);
        perTurn(label, ms, gcMs);
        line("%s: checkpoint payload (JSON of values, deltas) per step: %.0f bytes at turns %d-%d, %.0f bytes at turns %d-%d",
                label, perStep(payload, steps, from, to), from, to, perStep(payload, steps, lateFrom, turns), lateFrom, turns);
        if (pool != null) {
            line("%s: WAL written per step: %.0f bytes at turns %d-%d, %.0f bytes at turns %d-%d", label,
                    (double) (wal[to] - wal[from]) / sum(steps, from, to), from, to,
                    (double) (wal[turns] - wal[lateFrom]) / sum(steps, lateFrom, turns), lateFrom, turns);
        }
        return text;
    }

    /** The distribution of the long thread's turns, and the slowest ones with the GC time inside them. */
    private static void perTurn(String label, double[] ms, long[] gcMs) {
        double[] sorted = ms.clone();
        java.util.Arrays.sort(sorted);
        Integer[] order = new Integer[ms.length];
        for (int i = 0; i < ms.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(ms[b], ms[a]));
        StringBuilder slowest = new StringBuilder();
        for (int i = 0; i < Math.min(5, ms.length); i++) {
            int t = order[i];
            slowest.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "turn %d %.1f ms (GC %d ms)", t, ms[t], gcMs[t]));
        }
        line("%s: per turn over %d turns: p50 %.3f ms, p99 %.3f ms, max %.3f ms; slowest: %s", label, ms.length,
                percentile(sorted, 0.50), percentile(sorted, 0.99), sorted[sorted.length - 1], slowest);
    }

    /** Nearest rank. */
    private static double percentile(double[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static long gcMillis() {
        long sum = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /** The engine's options, with {@code -Dbench.snapshotEvery=N} to try another snapshot interval. */
    private static GraphOptions options(Checkpointer store) {
        GraphOptions o = GraphOptions.with(store);
        Integer every = Integer.getInteger("bench.snapshotEvery");
        return every == null ? o : o.snapshotEvery(every);
    }

    /**
     * A cold read, as after a restart or on another replica: a graph compiled anew (no cached state) reads the
     * thread's state, then takes a turn. The median of 5 fresh graphs each.
     */
    private static void cold(String label, Checkpointer store, String thread, int turns) {
        double[] read = new double[5];
        double[] turn = new double[5];
        for (int i = 0; i < 5; i++) {
            CompiledGraph fresh = PipelineShape.compile(options(store));
            long t0 = System.nanoTime();
            fresh.state(thread).await().indefinitely().orElseThrow();
            read[i] = (System.nanoTime() - t0) / 1e6;
            CompiledGraph another = PipelineShape.compile(options(store));
            long t1 = System.nanoTime();
            turn(another, RunRequest.on(thread).input(PipelineShape.input(turns + i)));
            turn[i] = (System.nanoTime() - t1) / 1e6;
        }
        java.util.Arrays.sort(read);
        java.util.Arrays.sort(turn);
        line("%s: cold state read at turn %d: %.3f ms; cold first turn: %.3f ms (medians of 5, each on a graph compiled anew)",
                label, turns, read[2], turn[2]);
    }

    /** {@code concurrency} threads taking turns at once: checkpointed steps per second through one store. */
    private static void concurrent(Checkpointer store, int concurrency, int turnsEach) {
        CompiledGraph graph = PipelineShape.compile(options(store));
        AtomicLong steps = new AtomicLong();
        AtomicLong checkpoints = new AtomicLong();
        for (int round = 0; round < 2; round++) { // the first round warms up
            steps.set(0);
            checkpoints.set(0);
            long t0 = System.nanoTime();
            Multi.createFrom().range(0, concurrency)
                    .onItem().transformToUniAndMerge(w -> {
                        String thread = "c-" + UUID.randomUUID();
                        return Multi.createFrom().range(0, turnsEach)
                                .onItem().transformToUniAndConcatenate(t -> graph.stream(RunRequest.on(thread).input(PipelineShape.input(t)))
                                        .onItem().invoke(e -> {
                                            if (e instanceof GraphEvent.TaskFinished) {
                                                steps.incrementAndGet();
                                            } else if (e instanceof GraphEvent.RunStarted || e instanceof GraphEvent.Values) {
                                                checkpoints.incrementAndGet();
                                            } else if (e instanceof GraphEvent.RunFailed f) {
                                                throw new IllegalStateException(f.message());
                                            }
                                        }).collect().last())
                                .collect().last();
                    })
                    .collect().last().await().indefinitely();
            double s = (System.nanoTime() - t0) / 1e9;
            if (round == 1) {
                line("postgres/sync: %d threads at once, %d turns each: %.0f node steps/s, %.0f checkpoints/s (%.1f s)",
                        concurrency, turnsEach, steps.get() / s, checkpoints.get() / s, s);
            }
        }
    }

    private static int turn(CompiledGraph graph, RunRequest req) {
        int[] steps = {0};
        GraphEvent last = graph.stream(req).onItem().invoke(e -> {
            if (e instanceof GraphEvent.TaskFinished) {
                steps[0]++;
            }
        }).collect().last().await().indefinitely();
        if (!(last instanceof GraphEvent.RunFinished)) {
            throw new IllegalStateException("the turn ended with " + last);
        }
        return steps[0];
    }

    // ---- Postgres helpers

    private static void recreateDatabase() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.jdbcUrl("postgres"), TestDatabase.user(), TestDatabase.password());
             var st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + DB + " WITH (FORCE)");
            st.execute("CREATE DATABASE " + DB);
        }
    }

    private static long tableBytes(Pool pool) {
        Row r = pool.query("SELECT sum(pg_total_relation_size(oid))::bigint FROM pg_class WHERE relname LIKE 'conduit\\_%' AND relkind = 'r'")
                .execute().await().indefinitely().iterator().next();
        return r.getLong(0);
    }

    private static long walPosition(Pool pool) {
        return pool.query("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint").execute().await().indefinitely()
                .iterator().next().getLong(0);
    }

    // ---- arithmetic and output

    private static double avg(double[] a, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += a[i];
        }
        return s / Math.max(1, to - from);
    }

    private static long sum(long[] a, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += a[i];
        }
        return Math.max(1, s);
    }

    private static double perStep(long[] bytes, long[] steps, int from, int to) {
        return (double) sum(bytes, from, to) / sum(steps, from, to);
    }

    private static void line(String format, Object... args) {
        String s = String.format(Locale.ROOT, format, args);
        System.out.println(s);
        REPORT.add("- " + s);
    }

    /** Counts the JSON bytes of what each checkpoint stores (values and deltas), then passes it on. */
    private static final class Measuring extends ForwardingCheckpointer {
        final AtomicLong bytes = new AtomicLong();

        Measuring(Checkpointer inner) {
            super(inner);
        }

        @Override
        public Uni<Void> put(Checkpoint cp, String expectedHead) {
            long n = 0;
            for (Stored s : cp.values().values()) {
                n += s.json().length();
            }
            for (Stored s : cp.deltas().values()) {
                n += s.json().length();
            }
            bytes.addAndGet(n);
            return store.put(cp, expectedHead);
        }
    }
}
