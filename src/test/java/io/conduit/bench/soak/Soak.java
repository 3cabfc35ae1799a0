package io.conduit.bench.soak;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The soak client (bench/soak.sh starts the two replicas and runs it; not a test): {@code soak.conversations}
 * conversations in flight over two replicas of one database for {@code soak.minutes}, a sample of both servers and
 * the database every {@code soak.sampleSeconds}, then the table and the clients' counts, on stdout and in
 * {@code soak.out}.
 */
public final class Soak {
    private Soak() {
    }

    public static void main(String[] args) throws Exception {
        SoakSettings settings = SoakSettings.fromSystemProperties();
        SoakCounts counts = new SoakCounts();
        List<Sample> samples = new ArrayList<>();
        ExecutorService users = Executors.newVirtualThreadPerTaskExecutor();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        long start = System.nanoTime();
        long end = start + settings.duration().toNanos();
        try (RunHolders holders = new RunHolders(settings.jdbcUrl(), 4);
             Sampler sampler = new Sampler(settings.pids(), settings.jdbcUrl())) {
            samples.add(print(sampler.take(0, counts)));
            for (int i = 0; i < settings.conversations(); i++) {
                users.submit(new SoakConversation(settings, http, counts, holders, () -> System.nanoTime() < end));
            }
            long next = start + settings.sampleEvery().toNanos();
            while (next < end) {
                TimeUnit.NANOSECONDS.sleep(next - System.nanoTime());
                samples.add(print(sampler.take(minutes(start), counts)));
                next += settings.sampleEvery().toNanos();
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
            // the conversations finish the runs they follow, so none is counted as an error for being cut short
            users.shutdown();
            if (!users.awaitTermination(3, TimeUnit.MINUTES)) {
                System.err.println("conversations still in flight 3 minutes after the end; stopping them");
                users.shutdownNow();
            }
            samples.add(print(sampler.take(minutes(start), counts)));
        }
        String report = SoakReport.table(samples) + "\n" + SoakReport.totals(counts, settings);
        System.out.println();
        System.out.print(report);
        Path out = Path.of(settings.out());
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
        System.exit(counts.lost.sum() + counts.repeated.sum() > 0 ? 1 : 0);
    }

    private static double minutes(long start) {
        return (System.nanoTime() - start) / 60e9;
    }

    private static Sample print(Sample s) {
        System.out.print(SoakReport.table(List.of(s)).lines().skip(2).findFirst().orElse("") + "\n");
        return s;
    }
}
