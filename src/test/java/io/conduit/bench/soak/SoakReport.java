package io.conduit.bench.soak;

import java.util.List;
import java.util.Map;

/** The soak's samples as a table, and the clients' totals under it. */
final class SoakReport {
    private SoakReport() {
    }

    static String table(List<Sample> samples) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("| min | heap A MB | heap B MB | fds A | fds B | RSS A MB | RSS B MB | db conns | frames rows | frames kB"
                + " | watches rows | watches kB | conversations | tokens | lost | repeated | errors |%n"));
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Sample s : samples) {
            Sample.Replica a = s.replicas().isEmpty() ? new Sample.Replica(-1, -1, -1) : s.replicas().get(0);
            Sample.Replica r = s.replicas().size() < 2 ? new Sample.Replica(-1, -1, -1) : s.replicas().get(1);
            b.append(String.format("| %.1f | %s | %s | %d | %d | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |%n",
                    s.minute(), mb(a.heapAfterGcKb()), mb(r.heapAfterGcKb()), a.fds(), r.fds(), mb(a.rssKb()), mb(r.rssKb()),
                    s.dbConnections(), s.frameRows(), s.frameBytes() / 1024, s.watchRows(), s.watchBytes() / 1024,
                    s.conversations(), s.tokens(), s.lost(), s.repeated(), s.errors()));
        }
        return b.toString();
    }

    static String totals(SoakCounts c, SoakSettings settings) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("conversations %d (second turns %d, deleted threads %d), runs %d, followed on the replica that did not"
                        + " execute them %d%n", c.conversations.sum(), c.secondTurns.sum(), c.deletions.sum(), c.runs.sum(),
                c.crossReplica.sum()));
        b.append(String.format("tokens %d, AI messages checked against the final state %d%n", c.tokens.sum(), c.messagesChecked.sum()));
        b.append(String.format("LOST %d, REPEATED %d, errors %d, streams stuck without their end %d, streams with no AI text %d,"
                        + " states that lagged the end %d%n",
                c.lost.sum(), c.repeated.sum(), c.errors.sum(), c.stuck.sum(), c.emptyStreams.sum(), c.lateState.sum()));
        b.append(String.format("(%d conversations in flight, %.0f%% followed on the other replica, %.0f%% second turns, %.0f%% deleted,"
                        + " %s)%n", settings.conversations(), settings.otherReplica() * 100, settings.secondTurn() * 100,
                settings.delete() * 100, settings.duration()));
        for (Map.Entry<String, String> e : c.examples().entrySet()) {
            b.append("  ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        return b.toString();
    }

    private static String mb(long kb) {
        return kb < 0 ? "?" : String.format("%.1f", kb / 1024.0);
    }
}
