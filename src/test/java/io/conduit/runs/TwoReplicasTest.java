package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.PackagedApp;
import io.conduit.kernel.JsonCodec;
import io.conduit.persistence.PostgresHousekeeperRole;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two replicas on one database: the packaged app as two processes on two ports and one PostgreSQL database (its own,
 * {@code <db>_replicas}), what a scale-out to two pods is. What they share is only the database, and it is what keeps
 * the cluster's promises: a thread's runs, asked for through both replicas, run one at a time in the order they were
 * created (the partial unique index on running runs and the claim of a thread's oldest run); a cron's tick, which both
 * replicas look for every 100 ms, is claimed by one of them only ({@code FOR UPDATE SKIP LOCKED}); the housekeeping is
 * one replica's (an advisory lock). Which replica did what is written to {@code target/two-replicas.txt}, not asserted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoReplicasTest {

    private static final Duration WAIT = PackagedApp.WAIT;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<PackagedApp> APPS = new ArrayList<>();
    private static final String[] NAMES = {"a", "b"};
    private static final String[] BASES = new String[2];
    private static String database;

    @BeforeAll
    static void startTwoReplicas() throws Exception {
        database = PackagedApp.database("replicas");
        for (int i = 0; i < 2; i++) {
            PackagedApp app = new PackagedApp("replicas", PackagedApp.freePort(), "two-replicas", Map.of(
                    "conduit.llm.provider", "simulated",
                    "conduit.simulator.time-to-first-token", "20ms",
                    "conduit.simulator.inter-token-delay", "2ms",
                    "conduit.runs.poll-interval", "100ms",
                    "conduit.crons.poll-interval", "100ms",
                    "conduit.crons.batch-size", "2", // a look claims two, then looks again at once: the replicas' looks interleave
                    "conduit.housekeeping.interval", "200ms",
                    "quarkus.log.category.\"io.conduit.runs.crons\".level", "DEBUG"));
            APPS.add(app);
            BASES[i] = app.base();
            app.start(NAMES[i]);
        }
    }

    @AfterAll
    static void stopReplicas() {
        APPS.forEach(PackagedApp::close);
    }

    /**
     * Six runs of one thread, {@code enqueue}, asked for through the two replicas in turn while the first runs: each
     * started (its first checkpoint) after the one before it ended (its record's end), in the order they were created,
     * and each turn saw the one before (the thread's messages are the six questions in order, each answered).
     */
    @Test
    @Order(1)
    void aThreadsRunsRunOneAtATimeInCreationOrderWhicheverReplicaTookThem() throws Exception {
        String thread = "replicas-" + UUID.randomUUID();
        send(BASES[0], "POST", "/threads", Map.of("thread_id", thread));
        List<String> asked = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            JsonNode run = send(BASES[i % 2], "POST", "/threads/" + thread + "/runs", Map.of("assistant_id", "agent",
                    "multitask_strategy", "enqueue",
                    "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week, turn " + i)))));
            asked.add(run.get("run_id").asText());
        }
        PackagedApp.await("the six runs to end", () -> scalar("SELECT count(*) FROM conduit_runs WHERE thread_id = ? AND status IN ('pending', 'running')", thread) == 0);

        List<Map<String, Object>> runs = rows("SELECT r.run_id, r.status, r.worker_id, "
                + "floor(extract(epoch FROM r.updated_at) * 1000)::bigint AS ended, "
                // a checkpoint id is a UUIDv7: its first 48 bits are the millisecond it was written
                + "(SELECT min(('x' || lpad(substr(replace(c.checkpoint_id::text, '-', ''), 1, 12), 16, '0'))::bit(64)::bigint) "
                + "   FROM conduit_checkpoints c JOIN conduit_threads t ON t.thread_key = c.thread_key "
                + "   WHERE t.thread_id = r.thread_id AND c.run_id::text = r.run_id) AS started "
                + "FROM conduit_runs r WHERE r.thread_id = ? ORDER BY r.created_at, r.run_id", thread);
        assertThat(runs).extracting(r -> r.get("run_id")).as("the runs in the order they were created").containsExactlyElementsOf(asked);
        assertThat(runs).extracting(r -> r.get("status")).containsOnly("success");
        StringBuilder report = new StringBuilder("one thread's six enqueued runs, asked of replicas a and b in turn:\n");
        for (int i = 0; i < runs.size(); i++) {
            Map<String, Object> run = runs.get(i);
            assertThat(run.get("started")).as("run %d's first checkpoint", i).isNotNull();
            long started = (Long) run.get("started");
            long ended = (Long) run.get("ended");
            assertThat(ended).as("run %d ended after it started", i).isGreaterThanOrEqualTo(started);
            if (i > 0) {
                assertThat(started).as("run %d started after run %d ended", i, i - 1).isGreaterThanOrEqualTo((Long) runs.get(i - 1).get("ended"));
            }
            report.append(String.format("  run %d asked of %s, ran on %s, %d ms (started %d ms after the previous end)%n", i, NAMES[i % 2],
                    replica((String) run.get("worker_id")), ended - started, i == 0 ? 0 : started - (Long) runs.get(i - 1).get("ended")));
        }
        JsonNode messages = send(BASES[1], "GET", "/threads/" + thread + "/state", null).get("values").get("messages");
        List<String> questions = new ArrayList<>();
        String previous = null;
        for (JsonNode m : messages) {
            String type = m.get("type").asText();
            if (type.equals("human")) {
                assertThat(previous).as("each question after the answer to the one before").isIn(null, "ai");
                questions.add(m.get("content").asText());
            }
            previous = type;
        }
        assertThat(previous).isEqualTo("ai");
        assertThat(questions).containsExactly("Please plan my week, turn 0", "Please plan my week, turn 1", "Please plan my week, turn 2",
                "Please plan my week, turn 3", "Please plan my week, turn 4", "Please plan my week, turn 5");
        report(report.toString());
    }

    /**
     * Eight crons due at once, three times over, with both replicas looking every 100 ms and claiming two at a look:
     * each tick gives one run, never two. Their schedule (1 January, midnight) never comes during the test: a tick is
     * made due by setting its {@code next_run_date} in the past, which claiming moves to next year.
     */
    @Test
    @Order(2)
    void aCronsTickIsClaimedByOneReplicaOnly() throws Exception {
        int crons = 8;
        int rounds = 3;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < crons; i++) {
            String thread = "replicas-cron-" + UUID.randomUUID();
            send(BASES[i % 2], "POST", "/threads", Map.of("thread_id", thread));
            JsonNode cron = send(BASES[i % 2], "POST", "/threads/" + thread + "/runs/crons", Map.of("assistant_id", "agent",
                    "schedule", "0 0 1 1 *", "multitask_strategy", "enqueue",
                    "input", Map.of("messages", List.of(Map.of("role", "user", "content", "What time is it?")))));
            ids.add(cron.get("cron_id").asText());
        }
        String inIds = "('" + String.join("','", ids) + "')";
        for (int round = 1; round <= rounds; round++) {
            update("UPDATE conduit_crons SET next_run_date = now() - interval '1 second' WHERE cron_id IN " + inIds);
            PackagedApp.await("the ticks to be claimed", () -> scalar("SELECT count(*) FROM conduit_crons WHERE cron_id IN " + inIds
                    + " AND next_run_date < now()") == 0);
            int expected = round * crons;
            PackagedApp.await("a run of each tick", () -> scalar("SELECT count(*) FROM conduit_runs WHERE metadata->>'cron_id' IN " + inIds) >= expected);
            PackagedApp.await("the ticks' runs to end", () -> scalar("SELECT count(*) FROM conduit_runs WHERE metadata->>'cron_id' IN " + inIds
                    + " AND status IN ('pending', 'running')") == 0);
            for (String id : ids) {
                assertThat(scalar("SELECT count(*) FROM conduit_runs WHERE metadata->>'cron_id' = ?", id))
                        .as("runs of cron %s after %d ticks", id, round).isEqualTo(round);
            }
        }
        assertThat(scalar("SELECT count(*) FROM conduit_runs WHERE metadata->>'cron_id' IN " + inIds + " AND status <> 'success'")).isZero();
        Map<String, Long> claimed = new LinkedHashMap<>();
        for (String name : NAMES) {
            String log = Files.readString(Path.of("target", "two-replicas-" + name + ".log"));
            claimed.put(name, ids.stream().mapToLong(id -> log.split("Cron " + id + ": run ", -1).length - 1).sum());
        }
        assertThat(claimed.values().stream().mapToLong(Long::longValue).sum()).as("ticks submitted, by the replicas' logs").isEqualTo((long) crons * rounds);
        report(String.format("%d crons due at once, %d times: every tick one run; ticks claimed by replica a: %d, b: %d%n",
                crons, rounds, claimed.get("a"), claimed.get("b")));
    }

    /** One replica holds the housekeeper's lock, the other looks for it every 200 ms and does no housekeeping. */
    @Test
    @Order(3)
    void theHousekeepingIsOneReplicas() throws Exception {
        PackagedApp.await("a housekeeper", () -> housekeepers().size() == 1);
        assertThat(scalar("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
                + "(SELECT oid FROM pg_database WHERE datname = current_database()) AND ((classid::bigint << 32) | objid::bigint) = "
                + PostgresHousekeeperRole.KEY)).as("sessions holding the housekeeper's lock").isEqualTo(1);
        assertThat(housekeepers()).as("replicas that did the housekeeping, by their logs").hasSize(1);
        assertThat(Files.readString(Path.of("target", "two-replicas-" + housekeepers().get(0) + ".log")))
                .as("the housekeeper's chores").contains("threads past their time to live", "the store's lapsed items", "token counts older than");
        report("the housekeeping: replica " + housekeepers().get(0) + " alone\n");
    }

    private static List<String> housekeepers() throws Exception {
        List<String> found = new ArrayList<>();
        for (String name : NAMES) {
            if (Files.readString(Path.of("target", "two-replicas-" + name + ".log")).contains("This replica does the cluster's housekeeping now")) {
                found.add(name);
            }
        }
        return found;
    }

    /** The replica (a or b) of a worker id, {@code host:port...}. */
    private static String replica(String workerId) {
        for (int i = 0; i < 2; i++) {
            if (workerId != null && workerId.contains(":" + URI.create(BASES[i]).getPort())) {
                return NAMES[i];
            }
        }
        return String.valueOf(workerId);
    }

    private static void report(String text) throws Exception {
        System.out.print(text);
        Files.writeString(Path.of("target", "two-replicas.txt"), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static JsonNode send(String base, String method, String path, Object body) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT);
        if (body != null) {
            req.header("content-type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body)));
        } else {
            req.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> res = HTTP.send(req.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as("%s %s: %s", method, path, res.body()).isBetween(200, 299);
        return JsonCodec.MAPPER.readTree(res.body());
    }

    private static Connection db() throws Exception {
        String host = env("CONDUIT_DB_HOST", "127.0.0.1");
        String port = env("CONDUIT_DB_PORT", "5432");
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + database,
                env("CONDUIT_DB_USERNAME", "postgres"), env("CONDUIT_DB_PASSWORD", ""));
    }

    private static long scalar(String sql, Object... args) throws Exception {
        List<Map<String, Object>> rows = rows(sql, args);
        return ((Number) rows.get(0).values().iterator().next()).longValue();
    }

    private static void update(String sql) throws Exception {
        try (Connection c = db(); var st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    private static List<Map<String, Object>> rows(String sql, Object... args) throws Exception {
        try (Connection c = db(); var st = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
            List<Map<String, Object>> out = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> row = new HashMap<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                    }
                    out.add(row);
                }
            }
            return out;
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
