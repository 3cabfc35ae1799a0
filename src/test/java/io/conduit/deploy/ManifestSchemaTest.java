package io.conduit.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every object each overlay of {@code k8s/} renders (by {@link ManifestRender}) validates offline against the
 * Kubernetes schemas that npm's {@code kubernetes-models} bundles ({@code src/test/js/k8s-validate.mjs}). Those
 * schemas accept fields they do not know; a misspelt field that matters is caught by {@link ManifestPolicyTest},
 * which looks for each by its path.
 */
class ManifestSchemaTest {

    static final Path K8S = Path.of("k8s");
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void clients() {
        assertThat(new File("src/test/js/node_modules/kubernetes-models/package.json"))
                .as("npm's kubernetes-models; install the test clients: npm ci --prefix src/test/js").exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyRenderedObjectIsValid(String overlay) throws Exception {
        List<ObjectNode> objects = ManifestRender.render(K8S.resolve("overlays").resolve(overlay));
        assertThat(objects).extracting(o -> o.path("kind").asText())
                .contains("Deployment", "Service", "ConfigMap", "ServiceAccount", "PodDisruptionBudget", "NetworkPolicy");
        Validation v = validate(objects, overlay);
        assertThat(v.exit).as(v.output).isZero();
        assertThat(v.output.lines().filter(l -> l.startsWith("ok "))).hasSize(objects.size());
    }

    @Test
    void theSecretTemplateIsValid() throws Exception {
        Validation v = validate(ManifestRender.read(K8S.resolve("secret.example.yaml")), "secret-template");
        assertThat(v.exit).as(v.output).isZero();
    }

    /** The check can fail: a port that is not a number, and a kind no schema knows, are both refused. */
    @Test
    void anInvalidObjectIsRefused() throws Exception {
        ObjectNode service = ManifestRender.find(ManifestRender.render(K8S.resolve("overlays/dev")), "Service", "conduit")
                .orElseThrow();
        ((ObjectNode) service.withArray("/spec/ports").get(0)).put("port", "eighty");
        ObjectNode unknown = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Frobnicator");
        unknown.putObject("metadata").put("name", "x");
        Validation v = validate(List.of(service, unknown), "invalid");
        assertThat(v.exit).isEqualTo(1);
        assertThat(v.output).contains("invalid Service/conduit: data/spec/ports/0/port must be integer")
                .contains("invalid Frobnicator/x");
    }

    record Validation(int exit, String output) {
    }

    static Validation validate(List<ObjectNode> objects, String name) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "k8s"));
        Path file = dir.resolve(name + ".json");
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), new ArrayList<>(objects));
        Path out = dir.resolve(name + ".validation.txt");
        Process node = new ProcessBuilder("node", "src/test/js/k8s-validate.mjs", file.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        // a bound against a hung process, not a timing assertion
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).as("node finished").isTrue();
        return new Validation(node.exitValue(), Files.readString(out));
    }
}
