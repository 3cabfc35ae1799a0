package io.conduit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The packaged app ({@code target/quarkus-app}, which the build makes in {@code process-test-classes}, before the
 * tests) as processes of its own on one port and a PostgreSQL database of the test's, answered by the HTTP simulator:
 * started and waited for until ready, killed with SIGKILL, started again on the same database, as a crash and a
 * restart would. {@link #close} kills whatever is still running.
 */
public final class PackagedApp implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");

    private final String database;
    private final int port;
    private final String logName;
    private final Map<String, String> settings;
    private final List<Process> started = new ArrayList<>();
    private final HttpClient probe = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * @param database the database's name after the tests' own ({@code CONDUIT_DB_NAME}, made if missing), so that a
     *                 restarted app's recovery sees only this test's runs
     * @param logName  its processes log to {@code target/<logName>-<name>.log}
     * @param settings system properties of the app beside those of this class
     */
    public PackagedApp(String database, int port, String logName, Map<String, String> settings) throws Exception {
        assertThat(JAR).as("the packaged app; ./mvnw test builds it before the tests (or ./mvnw quarkus:build)").exists();
        this.database = database(database);
        this.port = port;
        this.logName = logName;
        this.settings = Map.copyOf(settings);
    }

    public String base() {
        return "http://127.0.0.1:" + port;
    }

    /** Starts a process of the app ({@code name} names its log) and returns it once it is ready. */
    public Process start(String name) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = Path.of("target", logName + "-" + name + ".log");
        List<String> cmd = new ArrayList<>(List.of(java,
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dconduit.checkpointer.store=postgres",
                "-Dconduit.auth.mode=none", // prod refuses to start until a mode is chosen
                "-Dconduit.db.name=" + database,
                "-Dconduit.simulator.enabled=true",
                "-Dconduit.llm.base-url=" + base() + "/simulator/v1"));
        settings.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-jar", JAR.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        try {
            await("the app (" + name + ") to be ready", () -> {
                if (!p.isAlive()) {
                    throw new AssertionError("the app exited with " + p.exitValue());
                }
                try {
                    return probe.send(HttpRequest.newBuilder(URI.create(base() + "/q/health/ready")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException notYet) {
                    return false;
                }
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nlog:\n" + Files.readString(log), e);
        }
        return p;
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or recorded on the way out. Returns the exit value. */
    public static int kill(Process p) throws InterruptedException {
        p.destroyForcibly();
        return p.waitFor();
    }

    @Override
    public void close() {
        started.forEach(Process::destroyForcibly);
    }

    public interface Check {
        boolean ok() throws Exception;
    }

    /** Polls {@code check} until it holds, for at most {@link #WAIT}: a process of its own sends no event to wait on. */
    public static void await(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (check.ok()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("waited " + WAIT + " for " + what);
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The tests' database name plus {@code _suffix}, created if missing. */
    public static String database(String suffix) throws Exception {
        String host = env("CONDUIT_DB_HOST", "127.0.0.1");
        String port = env("CONDUIT_DB_PORT", "5432");
        String name = env("CONDUIT_DB_NAME", "test") + "_" + suffix;
        try (var c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres",
                env("CONDUIT_DB_USERNAME", "postgres"), env("CONDUIT_DB_PASSWORD", ""));
             var st = c.createStatement()) {
            try (var rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                if (!rs.next()) {
                    st.execute("CREATE DATABASE \"" + name + "\"");
                }
            }
        }
        return name;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
