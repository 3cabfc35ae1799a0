package io.conduit.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Conduit's JVM image as the tests use it: built by {@code deploy/build-image.sh} (buildah), read from the OCI layout
 * it writes ({@code target/image/oci}: the image's own config, Entrypoint, Cmd, Env, User, WorkingDir, ExposedPorts,
 * Volumes) and unpacked by umoci into {@code target/image/bundle/rootfs}. Built once per test JVM.
 */
record ContainerImage(List<String> entrypoint, List<String> cmd, Map<String, String> env, String user,
                      String workingDir, List<String> exposedPorts, List<String> volumes, Path rootfs) {

    static final Path OUT = Path.of("target", "image");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ContainerImage built;

    /** The image, built (its AOT cache trained against {@code database}) and unpacked on first use; skips the test where buildah or umoci is not installed. */
    static synchronized ContainerImage built(int trainPort, String database) throws Exception {
        if (built != null) {
            return built;
        }
        for (String tool : List.of("/usr/bin/buildah", "/usr/bin/umoci", "/usr/sbin/debootstrap")) {
            Assumptions.assumeTrue(new File(tool).canExecute(), tool + " is not installed (Debian: apt-get install"
                    + " buildah umoci debootstrap; .ci/run installs them): no image to build and test");
        }
        run(List.of("deploy/build-image.sh"), Map.of("TRAIN_PORT", String.valueOf(trainPort), "CONDUIT_DB_NAME", database), OUT.resolve("build.log"), 900);
        Path bundle = OUT.resolve("bundle");
        run(List.of("rm", "-rf", bundle.toString()), Map.of(), OUT.resolve("unpack.log"), 120);
        run(List.of("/usr/bin/umoci", "unpack", "--image", OUT.resolve("oci") + ":conduit", bundle.toString()), Map.of(),
                OUT.resolve("unpack.log"), 300);
        built = read(OUT.resolve("oci"), bundle.resolve("rootfs"));
        return built;
    }

    /** The image's config from an OCI layout: index, then manifest, then config blob. */
    static ContainerImage read(Path layout, Path rootfs) throws Exception {
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        JsonNode manifest = blob(layout, index.at("/manifests/0/digest").asText());
        JsonNode config = blob(layout, manifest.at("/config/digest").asText()).path("config");
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode e : config.path("Env")) {
            String kv = e.asText();
            env.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        List<String> ports = new ArrayList<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        List<String> volumes = new ArrayList<>();
        config.path("Volumes").fieldNames().forEachRemaining(volumes::add);
        return new ContainerImage(strings(config.path("Entrypoint")), strings(config.path("Cmd")), env,
                config.path("User").asText(), config.path("WorkingDir").asText("/"), ports, volumes, rootfs);
    }

    private static JsonNode blob(Path layout, String digest) throws Exception {
        return JSON.readTree(layout.resolve("blobs").resolve(digest.replace(':', '/')).toFile());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static void run(List<String> command, Map<String, String> env, Path log, int maxSeconds) throws Exception {
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        // a bound against a hung build, not a timing assertion
        boolean done = p.waitFor(maxSeconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        assertThat(done && p.exitValue() == 0).as("%s succeeded; its log:\n%s", command, Files.readString(log)).isTrue();
    }
}
