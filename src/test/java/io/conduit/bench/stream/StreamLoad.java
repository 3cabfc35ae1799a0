package io.conduit.bench.stream;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The streaming load client: a separate process from the server, on the Vert.x HTTP and WebSocket clients. A
 * harness, not a test: {@code bench/stream-load.sh} builds its class path and runs it; docs/benchmarks.md
 * ("Streaming") has the commands and the figures.
 *
 * <p>Transports ({@code -Dbench.transport}): {@code ws} (the thread protocol over WebSocket), {@code sse} (classic
 * {@code runs/stream}, messages-tuple), {@code thread-sse} (the thread protocol's SSE), and {@code idle} (open
 * {@code bench.idle} WebSocket connections, each subscribed on its own thread, and measure the server's heap and
 * RSS per connection). For each concurrency in {@code bench.clients} the client ramps up, warms up, then measures
 * for {@code bench.seconds}: token events and tokens delivered per second, the latency of each stamped token (client
 * receive time minus the simulator's emit-time stamp, µs), the server's CPU per 1,000 tokens (from /proc, given
 * {@code bench.serverPid}) and the client's own CPU, so one can see it is not the bottleneck.
 *
 * <p>Two replicas ({@code -Dbench.followUrl}, transport {@code ws}): each conversation creates its thread and starts
 * its runs on {@code bench.url} (the owner, over {@code POST /threads/{tid}/commands}) but subscribes over WebSocket
 * on the follower, which gets the frames relayed through the database; {@code bench.followPid} adds the follower's
 * CPU. The follower's URL equal to the owner's is the same client on one replica, the baseline. Both may be lists
 * ({@code -Dbench.url=http://a,http://b -Dbench.followUrl=http://a,http://a,http://b,http://b}): conversation
 * {@code i} takes the owner {@code i mod} their number and the follower likewise, so the load spreads over both
 * replicas, half of it followed on the other one. The thread-protocol
 * transports also measure the first token's wait: from sending run.start to the first text delta.
 */
public final class StreamLoad {
    private StreamLoad() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getProperty("bench.url", "http://127.0.0.1:18190");
        String transport = System.getProperty("bench.transport", "ws");
        int[] clients = Arrays.stream(System.getProperty("bench.clients", "100,1000,5000").split(","))
                .map(String::trim).mapToInt(Integer::parseInt).toArray();
        int seconds = Integer.getInteger("bench.seconds", 20);
        int warmup = Integer.getInteger("bench.warmup", 10);
        double slowFraction = Double.parseDouble(System.getProperty("bench.slow", "0"));
        int eventLoops = Integer.getInteger("bench.eventLoops", 1);
        String serverPid = System.getProperty("bench.serverPid", "");
        String followUrl = System.getProperty("bench.followUrl", "");
        List<Load.Replica> owners = replicas(url);
        List<Load.Replica> followers = replicas(followUrl.isBlank() ? url : followUrl);
        java.net.URI uri = java.net.URI.create(url.split(",")[0].trim());
        if (!followUrl.isBlank() && !transport.equals("ws")) {
            throw new IllegalArgumentException("bench.followUrl: with bench.transport=ws only");
        }
        if (!followUrl.isBlank()) {
            transport = "ws-follow";
        }
        int maxClients = Math.max(Arrays.stream(clients).max().orElse(1), Integer.getInteger("bench.idle", 10_000));

        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(eventLoops)
                .setBlockedThreadCheckInterval(10_000));
        HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setIdleTimeout(0)
                .setConnectTimeout(60_000), new PoolOptions().setHttp1MaxSize(maxClients + 200)
                .setMaxWaitQueueSize(-1));
        WebSocketClient ws = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(maxClients + 200)
                .setConnectTimeout(60_000).setIdleTimeout(0));
        Load load = new Load(vertx, http, ws, uri.getHost(), uri.getPort(), owners, followers,
                System.getProperty("bench.assistant", "agent"),
                System.getProperty("bench.prompt", "Tell me a long story."),
                Integer.getInteger("bench.turns", 1),
                Long.getLong("bench.slowPauseMillis", 2000), Long.getLong("bench.slowReadMillis", 20));
        ServerProbe server = new ServerProbe(serverPid);
        ServerProbe follower = new ServerProbe(System.getProperty("bench.followPid", ""));

        System.out.printf(Locale.ROOT, "# %s %s%s, slow %.0f%%, client event loops %d, server pid %s, fd limit %s%n",
                transport, url, followUrl.isBlank() ? "" : " (subscribed on " + followUrl + ")", slowFraction * 100, eventLoops, serverPid.isBlank() ? "-" : serverPid, fdLimit());
        if (transport.equals("idle")) {
            idle(load, server, Integer.getInteger("bench.idle", 10_000));
        } else {
            System.out.println("| clients | slow | token events/s | tokens/s | tokens/s per client | latency ms p50 / p99 / p999 "
                    + "(fast clients) | slow clients p99 | first token ms p50 / p99 (fast) | stamped | runs/s | errors | server CPU ms / 1k tokens "
                    + "| server CPU % | follower CPU % | client CPU % | server RSS MB | load avg |");
            for (int n : clients) {
                phase(load, server, follower, transport, n, slowFraction, warmup, seconds);
            }
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        System.exit(0);
    }

    private static void phase(Load load, ServerProbe server, ServerProbe follower, String transport, int n, double slowFraction, int warmup,
            int seconds) throws InterruptedException {
        load.running = true;
        load.tally = new Tally();
        List<Conversation> all = new ArrayList<>();
        int slowCount = (int) Math.round(n * slowFraction);
        int every = slowCount == 0 ? 0 : n / slowCount;
        for (int i = 0; i < n; i++) {
            boolean slow = every > 0 && i % every == 0 && i / every < slowCount;
            Conversation c = switch (transport) {
                case "ws" -> new WebSocketConversation(load, slow);
                case "ws-follow" -> new FollowingWebSocketConversation(load, slow, load.owners.get(i % load.owners.size()),
                        load.followers.get(i % load.followers.size()));
                case "sse" -> new ClassicSseConversation(load, slow);
                case "thread-sse" -> new ThreadSseConversation(load, slow);
                default -> throw new IllegalArgumentException("bench.transport: ws, sse, thread-sse or idle");
            };
            all.add(c);
        }
        // ramp up over about two seconds per thousand so the start is not one burst of thread creations
        long rampMillis = Math.max(500, n * 2L);
        for (int i = 0; i < n; i++) {
            Conversation c = all.get(i);
            load.vertx.getOrCreateContext().runOnContext(v -> c.start());
            if (i % 50 == 49) {
                Thread.sleep(rampMillis * 50 / n);
            }
        }
        Thread.sleep(warmup * 1000L);
        settle(server);

        Tally tally = new Tally();
        long compiler0 = server.compilerCpuMillis();
        String loadBefore = loadAverage();
        long serverCpu0 = server.cpuMillis();
        long followerCpu0 = follower.cpuMillis();
        long clientCpu0 = ProcessCpu.self().cpuMillis();
        long t0 = System.nanoTime();
        load.tally = tally;
        Thread.sleep(seconds * 1000L);
        load.tally = new Tally();
        long elapsedNanos = System.nanoTime() - t0;
        long serverCpu = server.cpuMillis() - serverCpu0;
        long followerCpu = follower.present() ? follower.cpuMillis() - followerCpu0 : -1;
        long clientCpu = ProcessCpu.self().cpuMillis() - clientCpu0;
        long rssKb = server.rssKb();
        long compilerCpu = server.compilerCpuMillis() - compiler0;
        String loadAfter = loadAverage();

        load.running = false;
        for (Conversation c : all) {
            load.vertx.getOrCreateContext().runOnContext(v -> c.close());
        }
        double secs = elapsedNanos / 1e9;
        long tokens = tally.tokens.sum();
        System.out.printf(Locale.ROOT,
                "| %,d | %d | %,.0f | %,.0f | %.1f | %s / %s / %s | %s | %s / %s | %,d | %.1f | %d | %s | %s | %s | %.0f | %s | %s → %s |%n",
                n, slowCount, tally.events.sum() / secs, tokens / secs, tokens / secs / n,
                ms(tally.fast.percentile(0.50)), ms(tally.fast.percentile(0.99)), ms(tally.fast.percentile(0.999)),
                ms(tally.slow.percentile(0.99)), ms(tally.first.percentile(0.50)), ms(tally.first.percentile(0.99)),
                tally.fast.count() + tally.slow.count(),
                tally.conversations.sum() / secs, tally.errors.sum(),
                serverCpu < 0 || tokens == 0 ? "-" : String.format(Locale.ROOT, "%.1f", serverCpu * 1000.0 / tokens),
                serverCpu < 0 ? "-" : String.format(Locale.ROOT, "%.0f", serverCpu / 10.0 / secs),
                followerCpu < 0 ? "-" : String.format(Locale.ROOT, "%.0f", followerCpu / 10.0 / secs),
                clientCpu / 10.0 / secs,
                rssKb < 0 ? "-" : String.valueOf(rssKb / 1024), loadBefore, loadAfter);
        if (compiler0 >= 0 && serverCpu > 0) {
            System.out.printf(Locale.ROOT, "  (the server's JIT compiler threads: %.1f %% of its CPU in the window)%n", 100.0 * compilerCpu / serverCpu);
        }
        if (tally.fast.negatives() > 0) {
            System.out.println("  (" + tally.fast.negatives() + " stamps later than their receipt: clock steps?)");
        }
        Thread.sleep(Long.getLong("bench.pauseMillis", 10_000)); // runs left behind end before the next phase
    }

    /**
     * With {@code -Dbench.settle=<max seconds>}, warms on past the warm-up until the server's JIT has done its work: until
     * its compiler threads took under {@code bench.settleShare} (default 2 %) of one core over 10 s. A server with
     * much code (a framework, an agent graph) still compiles its per-run paths minutes after start, which the windows
     * would otherwise measure; a server with little code settles at once.
     */
    private static void settle(ServerProbe server) throws InterruptedException {
        int max = Integer.getInteger("bench.settle", 0);
        double share = Double.parseDouble(System.getProperty("bench.settleShare", "0.02"));
        if (max <= 0 || server.compilerCpuMillis() < 0) {
            return;
        }
        long start = System.nanoTime();
        while (true) {
            long before = server.compilerCpuMillis();
            Thread.sleep(10_000);
            long used = server.compilerCpuMillis() - before;
            long waited = (System.nanoTime() - start) / 1_000_000_000L;
            boolean settled = used < share * 10_000;
            if (settled || waited >= max) {
                System.out.printf(Locale.ROOT, "  (JIT %s after %d s more of warm-up: compiler threads %.1f %% of a core in the last 10 s)%n",
                        settled ? "settled" : "NOT settled", waited, used / 100.0);
                return;
            }
        }
    }

    private static List<Load.Replica> replicas(String urls) {
        return Arrays.stream(urls.split(",")).map(String::trim).map(java.net.URI::create).map(Load.Replica::of).toList();
    }

    /** Latency in ms with three decimals, from µs. */
    private static String ms(long micros) {
        return micros < 0 ? "-" : String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }

    private static void idle(Load load, ServerProbe server, int n) throws Exception {
        System.out.println("creating " + n + " threads…");
        List<String> threads = new ArrayList<>();
        for (int done = 0; done < n; ) {
            int batch = Math.min(200, n - done);
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                futures.add(load.createThread());
            }
            for (Future<String> f : futures) {
                threads.add(f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS));
            }
            done += batch;
        }
        long heap0 = server.heapAfterGcKb();
        long rss0 = server.rssKb();
        System.out.printf(Locale.ROOT, "before: heap after GC %,d KB, RSS %,d KB, load %s%n", heap0, rss0, loadAverage());

        ConcurrentLinkedQueue<WebSocket> open = new ConcurrentLinkedQueue<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger closedByServer = new AtomicInteger();
        for (int done = 0; done < n; ) {
            int batch = Math.min(200, n - done);
            CountDownLatch answered = new CountDownLatch(batch);
            for (int i = 0; i < batch; i++) {
                String tid = threads.get(done + i);
                load.vertx.getOrCreateContext().runOnContext(v -> load.ws.connect(new WebSocketConnectOptions()
                        .setHost(load.host).setPort(load.port).setURI("/threads/" + tid + "/stream/events"))
                        .onSuccess(socket -> {
                            open.add(socket);
                            socket.closeHandler(x -> closedByServer.incrementAndGet());
                            // an idle chat client is subscribed, waiting for its next run
                            socket.textMessageHandler(frame -> answered.countDown());
                            socket.writeTextMessage(load.subscribe(1));
                        })
                        .onFailure(e -> {
                            if (failed.incrementAndGet() <= 5) {
                                System.err.println("connect: " + e);
                            }
                            answered.countDown();
                        }));
            }
            if (!answered.await(60, TimeUnit.SECONDS)) {
                System.err.println("some subscriptions were not answered within 60 s");
            }
            done += batch;
        }
        Thread.sleep(5000); // let the server settle
        long heap1 = server.heapAfterGcKb();
        long rss1 = server.rssKb();
        int held = open.size() - closedByServer.get();
        System.out.printf(Locale.ROOT, "with %,d idle connections open (%d failed, %d closed by the server): heap after "
                + "GC %,d KB, RSS %,d KB, load %s%n", held, failed.get(), closedByServer.get(), heap1, rss1, loadAverage());
        if (held > 0 && heap0 >= 0) {
            System.out.printf(Locale.ROOT, "per idle connection: heap %.1f KB, RSS %.1f KB%n",
                    (heap1 - heap0) / (double) held, (rss1 - rss0) / (double) held);
        }
        Thread.sleep(Long.getLong("bench.idleHoldMillis", 30_000));
        System.out.printf(Locale.ROOT, "after holding them %d s: %d still open%n",
                Long.getLong("bench.idleHoldMillis", 30_000) / 1000, open.size() - closedByServer.get());
        for (WebSocket socket : open) {
            socket.close();
        }
        Thread.sleep(3000);
        System.out.printf(Locale.ROOT, "closed: heap after GC %,d KB, RSS %,d KB%n", server.heapAfterGcKb(),
                server.rssKb());
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0];
        } catch (Exception e) {
            return "?";
        }
    }

    private static String fdLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    return line.replaceAll("Max open files\\s+", "").replaceAll("\\s+", " ").trim();
                }
            }
        } catch (Exception e) {
            // unknown
        }
        return "?";
    }
}
