package io.conduit.bench.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Takes the soak's samples from outside the servers, so nothing in them is needed: the heap after a full GC through
 * {@code jcmd} (GC.run, then GC.heap_info), file descriptors and RSS from /proc, and the shared database's
 * connections and the cluster tables' rows and total size (with indexes and TOAST).
 */
final class Sampler implements AutoCloseable {
    /** A heap line of GC.heap_info, whatever the collector (G1's one heap, Serial's or Parallel's generations). */
    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private final List<String> pids;
    private final Connection db;
    private final String database;

    Sampler(List<String> pids, String jdbcUrl) throws SQLException {
        this.pids = pids;
        this.db = RunHolders.connect(jdbcUrl);
        this.database = jdbcUrl.replaceAll(".*/", "").replaceAll("\\?.*", "");
    }

    Sample take(double minute, SoakCounts c) {
        List<Sample.Replica> replicas = new ArrayList<>();
        for (String pid : pids) {
            replicas.add(new Sample.Replica(heapAfterGcKb(pid), fds(pid), rssKb(pid)));
        }
        return new Sample(minute, replicas, query("SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND application_name <> ?",
                database, RunHolders.APPLICATION),
                query("SELECT count(*) FROM conduit_event_frames"), query("SELECT pg_total_relation_size('conduit_event_frames')"),
                query("SELECT count(*) FROM conduit_event_watches"), query("SELECT pg_total_relation_size('conduit_event_watches')"),
                c.conversations.sum(), c.tokens.sum(), c.lost.sum(), c.repeated.sum(), c.errors.sum());
    }

    private long query(String sql, String... args) {
        try (PreparedStatement st = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setString(i + 1, args[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        } catch (SQLException e) {
            System.err.println("sample: " + sql + ": " + e.getMessage());
            return -1;
        }
    }

    private static long heapAfterGcKb(String pid) {
        jcmd(pid, "GC.run");
        long used = -1;
        for (String line : jcmd(pid, "GC.heap_info").split("\n")) {
            Matcher m = USED.matcher(line);
            if (!line.contains("Metaspace") && !line.contains("class space") && m.find()) {
                used = Math.max(used, 0) + Long.parseLong(m.group(1));
            }
        }
        return used;
    }

    private static long fds(String pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", pid, "fd"))) {
            return fds.count();
        } catch (IOException e) {
            return -1;
        }
    }

    private static long rssKb(String pid) {
        try {
            Matcher m = RSS.matcher(Files.readString(Path.of("/proc", pid, "status")));
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    private static String jcmd(String pid, String command) {
        return io.conduit.bench.Jcmd.run(pid, command);
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }
}
