package io.conduit.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ManifestPolicy} over what each overlay renders: no finding but the written-down exceptions. */
class ManifestPolicyTest {

    /**
     * Findings accepted on purpose, each with its reason (also in k8s/README.md). None today: every object of both
     * overlays meets the whole policy. An entry is "overlay: finding".
     */
    static final Map<String, String> EXCEPTIONS = Map.of();

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyObjectMeetsThePolicy(String overlay) throws Exception {
        List<String> findings = ManifestPolicy.findings(render(overlay)).stream()
                .filter(f -> !EXCEPTIONS.containsKey(overlay + ": " + f))
                .toList();
        assertThat(findings).isEmpty();
    }

    /** The policy can fail: each rule broken once in dev's Deployment is reported. */
    @Test
    void aDeploymentThatBreaksTheRulesIsReported() throws Exception {
        List<ObjectNode> objects = render("dev");
        ObjectNode deployment = ManifestRender.find(objects, "Deployment", "conduit").orElseThrow();
        ObjectNode pod = (ObjectNode) deployment.at("/spec/template/spec");
        ObjectNode container = (ObjectNode) pod.withArray("containers").get(0);
        ((ObjectNode) pod.get("securityContext")).put("runAsNonRoot", false).put("runAsUser", 0);
        pod.withArray("volumes").addObject().put("name", "host").putObject("hostPath").put("path", "/var/run");
        pod.put("terminationGracePeriodSeconds", 10);
        ((ObjectNode) container.get("securityContext")).put("readOnlyRootFilesystem", false)
                .put("allowPrivilegeEscalation", true);
        container.put("image", "localhost/conduit:latest");
        container.remove("livenessProbe");
        ((ObjectNode) container.get("resources")).remove("limits");

        assertThat(ManifestPolicy.findings(objects)).containsExactlyInAnyOrder(
                "Deployment/conduit: securityContext.runAsNonRoot must be true",
                "Deployment/conduit: securityContext.runAsUser must be a non-zero uid",
                "Deployment/conduit: volume host must not be a hostPath",
                "Deployment/conduit/conduit: securityContext.allowPrivilegeEscalation must be false",
                "Deployment/conduit/conduit: securityContext.readOnlyRootFilesystem must be true",
                "Deployment/conduit/conduit: resources.limits.memory must be set",
                "Deployment/conduit/conduit: livenessProbe must be set",
                "Deployment/conduit/conduit: image localhost/conduit:latest must name a tag other than latest",
                "Deployment/conduit: terminationGracePeriodSeconds 10 must cover preStop 5 s + QUARKUS_SHUTDOWN_TIMEOUT 20 s + 5 s");
    }

    /** The renderer does what the overlays rely on: patches merge, images retag, overlays differ as intended. */
    @Test
    void overlaysRenderTheirDifferences() throws Exception {
        List<ObjectNode> dev = render("dev");
        List<ObjectNode> prod = render("prod");
        ObjectNode devDeployment = ManifestRender.find(dev, "Deployment", "conduit").orElseThrow();
        ObjectNode prodDeployment = ManifestRender.find(prod, "Deployment", "conduit").orElseThrow();
        assertThat(devDeployment.at("/spec/replicas").asInt()).isEqualTo(1);
        assertThat(prodDeployment.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(devDeployment.at("/spec/template/spec/containers/0/image").asText()).isEqualTo("localhost/conduit:0.1.0-SNAPSHOT");
        assertThat(prodDeployment.at("/spec/template/spec/containers/0/image").asText()).isEqualTo("registry.example.com/conduit:0.1.0");
        // the prod patch changed the resources and kept what it did not name
        assertThat(prodDeployment.at("/spec/template/spec/containers/0/resources/limits/memory").asText()).isEqualTo("1536Mi");
        assertThat(prodDeployment.at("/spec/template/spec/containers/0/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(ManifestPolicy.configMap(dev, "conduit-config")).containsEntry("CONDUIT_LLM_PROVIDER", "simulated")
                .containsEntry("CONDUIT_DB_HOST", "conduit-postgres").containsEntry("CONDUIT_DB_PORT", "5432");
        assertThat(ManifestPolicy.configMap(prod, "conduit-config")).containsEntry("CONDUIT_LLM_PROVIDER", "openai");
        assertThat(dev).extracting(o -> o.path("kind").asText()).contains("StatefulSet").doesNotContain("HorizontalPodAutoscaler");
        assertThat(prod).extracting(o -> o.path("kind").asText()).contains("HorizontalPodAutoscaler").doesNotContain("StatefulSet", "Secret");
    }

    static List<ObjectNode> render(String overlay) throws Exception {
        return ManifestRender.render(Path.of("k8s", "overlays", overlay));
    }
}
