package io.conduit.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.PackagedApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JVM image, built by buildah and unpacked by umoci, started as the dev overlay's Deployment starts it: the
 * container's command (none: the image's entrypoint), its environment (the image's, then the ConfigMap's, then the
 * Secret's), its user, a read-only root with the one writable volume, its probe paths; so the manifests and the image
 * cannot drift apart. No container can run here: {@code deploy/ci/chroot-run.sh} does what a runtime would (mounts,
 * chroot, user). Then a thread, a streamed run on the simulated model, and SIGTERM: the JVM stops cleanly.
 *
 * <p>What differs from the pod, and why: the database (this test's, on 127.0.0.1, not the dev overlay's StatefulSet)
 * and the HTTP port (a free one, not 8080: the chroot shares the machine's network); the test checks instead that the
 * Deployment's container port, the image's exposed port and its QUARKUS_HTTP_PORT agree.
 */
class ContainerImageTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;

    @AfterEach
    void stop() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly(); // the pid this test started, and only that one
        }
    }

    @Test
    void theImageRunsAsTheDeploymentRunsIt() throws Exception {
        String database = PackagedApp.database("image");
        ContainerImage image = ContainerImage.built(PackagedApp.freePort(), database);
        List<ObjectNode> objects = ManifestRender.render(Path.of("k8s", "overlays", "dev"));
        JsonNode pod = ManifestRender.find(objects, "Deployment", "conduit").orElseThrow().at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");

        // ports, user and volumes agree between the manifests and the image
        int containerPort = container.at("/ports/0/containerPort").asInt();
        assertThat(container.at("/ports/0/name").asText()).isEqualTo("http");
        assertThat(image.exposedPorts()).containsExactly(containerPort + "/tcp");
        assertThat(image.env()).containsEntry("QUARKUS_HTTP_PORT", String.valueOf(containerPort));
        String user = pod.at("/securityContext/runAsUser").asText() + ":" + pod.at("/securityContext/runAsGroup").asText();
        assertThat(image.user()).isEqualTo(user);
        assertThat(container.path("volumeMounts")).extracting(m -> m.path("mountPath").asText())
                .containsExactlyElementsOf(image.volumes());
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            assertThat(container.at("/" + probe + "/httpGet/port").asText()).as(probe).isEqualTo("http");
        }

        List<String> command = new ArrayList<>(container.has("command") ? strings(container.get("command")) : image.entrypoint());
        command.addAll(container.has("args") ? strings(container.get("args")) : container.has("command") ? List.of() : image.cmd());
        Map<String, String> env = podEnv(image, container, objects);
        int port = PackagedApp.freePort();
        // what this machine needs instead of the pod's, and nothing else
        env.putAll(Map.of("QUARKUS_HTTP_PORT", String.valueOf(port), "HOSTNAME", "conduit-image-test",
                "CONDUIT_DB_HOST", envOr("CONDUIT_DB_HOST", "127.0.0.1"), "CONDUIT_DB_PORT", envOr("CONDUIT_DB_PORT", "5432"),
                "CONDUIT_DB_NAME", database, "CONDUIT_DB_USERNAME", envOr("CONDUIT_DB_USERNAME", "postgres"),
                "CONDUIT_DB_PASSWORD", envOr("CONDUIT_DB_PASSWORD", "")));

        List<String> launch = new ArrayList<>(List.of("deploy/ci/chroot-run.sh"));
        if (container.at("/securityContext/readOnlyRootFilesystem").asBoolean()) {
            launch.add("--read-only");
        }
        launch.addAll(List.of(image.rootfs().toString(), image.workingDir(), user));
        launch.addAll(command);
        Path log = ContainerImage.OUT.resolve("run.log");
        ProcessBuilder pb = new ProcessBuilder(launch).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        process = pb.start();
        String base = "http://127.0.0.1:" + port;

        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            String path = container.at("/" + probe + "/httpGet/path").asText();
            await(log, probe + " " + path, () -> status(base + path) == 200);
        }
        // the process is the image's java, as the image's user, with the AOT cache mapped (so it was accepted)
        String pid = String.valueOf(process.pid());
        assertThat(Files.readString(Path.of("/proc", pid, "cmdline")).replace('\0', ' ').strip())
                .isEqualTo(String.join(" ", command));
        assertThat(Files.readAllLines(Path.of("/proc", pid, "status")))
                .anyMatch(l -> l.matches("Uid:\\s+" + user.split(":")[0] + "\\s.*"));
        assertThat(Files.readString(Path.of("/proc", pid, "maps"))).contains("app.aot");

        String thread = JSON.readTree(post(base + "/threads", "{}")).path("thread_id").asText();
        String stream = post(base + "/threads/" + thread + "/runs/stream", """
                {"assistant_id": "agent", "stream_mode": ["messages-tuple", "values"],
                 "input": {"messages": [{"role": "user", "content": "Please plan my week"}]}}""");
        assertThat(stream).contains("event: messages").contains("event: values").containsPattern("event: end\\s*\\ndata: null");
        JsonNode messages = JSON.readTree(get(base + "/threads/" + thread + "/state")).at("/values/messages");
        assertThat(messages.get(messages.size() - 1).path("type").asText()).isEqualTo("ai");

        process.destroy(); // SIGTERM, to the JVM itself: chroot-run.sh execs into it
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the JVM exited after SIGTERM").isTrue();
        String output = Files.readString(log);
        // 143 = 128 + SIGTERM: the JVM's status after its shutdown hooks ran on that signal
        assertThat(process.exitValue()).as(output).isEqualTo(143);
        assertThat(output).contains("stopped in").doesNotContain(" ERROR ").doesNotContain("[error][aot]");
    }

    /** The container's environment as the kubelet makes it: the image's, then envFrom, then env. */
    private static Map<String, String> podEnv(ContainerImage image, JsonNode container, List<ObjectNode> objects) {
        Map<String, String> env = new LinkedHashMap<>(image.env());
        for (JsonNode from : container.path("envFrom")) {
            env.putAll(ManifestPolicy.configMap(objects, from.at("/configMapRef/name").asText()));
        }
        for (JsonNode e : container.path("env")) {
            JsonNode ref = e.at("/valueFrom/secretKeyRef");
            if (e.has("value")) {
                env.put(e.get("name").asText(), e.get("value").asText());
            } else if (!ref.isMissingNode()) {
                JsonNode value = ManifestRender.find(objects, "Secret", ref.path("name").asText()).orElseThrow()
                        .at("/stringData/" + ref.path("key").asText());
                assertThat(!value.isMissingNode() || ref.path("optional").asBoolean()).as(e.toString()).isTrue();
                if (!value.isMissingNode()) {
                    env.put(e.get("name").asText(), value.asText());
                }
            }
        }
        return env;
    }

    private int status(String url) throws Exception {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException notYet) {
            return -1;
        }
    }

    private String get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private String post(String url, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private void await(Path log, String what, PackagedApp.Check check) throws Exception {
        try {
            PackagedApp.await(what, () -> {
                if (!process.isAlive()) {
                    throw new AssertionError("the image's process exited with " + process.exitValue());
                }
                return check.ok();
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nlog:\n" + Files.readString(log), e);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String envOr(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
