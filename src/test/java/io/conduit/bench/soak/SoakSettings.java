package io.conduit.bench.soak;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What the soak runs against and how hard, from system properties (bench/soak.sh sets them): the two replicas, their
 * pids (probed from outside), the database they share, and the mix of conversations.
 *
 * @param urls          the replicas' base URLs ({@code soak.urls}, comma-separated; two)
 * @param pids          their process ids ({@code soak.pids}, in the same order), for jcmd and /proc
 * @param jdbcUrl       the shared database ({@code soak.jdbc}), for its connections and the event tables' size
 * @param duration      how long the load runs ({@code soak.minutes})
 * @param conversations conversations in flight at once ({@code soak.conversations})
 * @param sampleEvery   time between two samples ({@code soak.sampleSeconds})
 * @param otherReplica  the share of conversations followed on the replica they were not created on ({@code soak.otherShare})
 * @param secondTurn    the share of threads that get a second turn ({@code soak.secondTurnShare})
 * @param delete        the share of threads deleted once done ({@code soak.deleteShare})
 * @param out           where the table is written ({@code soak.out})
 */
record SoakSettings(List<String> urls, List<String> pids, String jdbcUrl, Duration duration, int conversations,
                    Duration sampleEvery, double otherReplica, double secondTurn, double delete, String out) {

    static SoakSettings fromSystemProperties() {
        List<String> urls = list("soak.urls", "http://127.0.0.1:18461,http://127.0.0.1:18462");
        List<String> pids = list("soak.pids", "");
        if (urls.size() != 2) {
            throw new IllegalArgumentException("soak.urls: two replicas, got " + urls);
        }
        double minutes = Double.parseDouble(System.getProperty("soak.minutes", "30"));
        return new SoakSettings(urls, pids,
                System.getProperty("soak.jdbc", "jdbc:postgresql://127.0.0.1:5432/test_soak"),
                Duration.ofMillis((long) (minutes * 60_000)),
                Integer.getInteger("soak.conversations", 100),
                Duration.ofSeconds(Integer.getInteger("soak.sampleSeconds", 60)),
                share("soak.otherShare", 0.8), share("soak.secondTurnShare", 0.3), share("soak.deleteShare", 0.5),
                System.getProperty("soak.out", "target/soak.txt"));
    }

    private static List<String> list(String name, String fallback) {
        return Arrays.stream(System.getProperty(name, fallback).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static double share(String name, double fallback) {
        return Double.parseDouble(System.getProperty(name, Double.toString(fallback)));
    }
}
