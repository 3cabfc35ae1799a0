package io.conduit.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Our security and operations policy for the objects an overlay renders; each finding is
 * {@code Kind/name[/container]: rule}. For every pod template (Deployment, StatefulSet): non-root with a user id,
 * seccomp RuntimeDefault, no service-account token, no host namespaces or host paths; for every container: no
 * privilege escalation, not privileged, a read-only root filesystem, ALL capabilities dropped, CPU and memory
 * requested, a memory limit, readiness and liveness probes, an image with a tag that is not {@code latest}; for every
 * ServiceAccount: no token mounted. For Conduit's Deployment also: a startup probe, and a grace period that covers the
 * preStop pause, Quarkus' shutdown timeout (its ConfigMap's QUARKUS_SHUTDOWN_TIMEOUT) and {@link #EXIT_MARGIN}.
 * What it does not require on purpose (CPU limits, a non-zero group) is in k8s/README.md.
 */
final class ManifestPolicy {

    static final Duration EXIT_MARGIN = Duration.ofSeconds(5);
    private static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "DaemonSet", "Job");

    private ManifestPolicy() {
    }

    static List<String> findings(List<ObjectNode> objects) {
        List<String> out = new ArrayList<>();
        for (ObjectNode o : objects) {
            String id = o.path("kind").asText() + "/" + o.path("metadata").path("name").asText();
            if (o.path("kind").asText().equals("ServiceAccount")) {
                require(!o.path("automountServiceAccountToken").asBoolean(true), id + ": automountServiceAccountToken must be false", out);
            }
            if (WORKLOADS.contains(o.path("kind").asText())) {
                pod(id, o.path("spec").path("template").path("spec"), out);
            }
        }
        conduitDrain(objects, out);
        return out;
    }

    private static void pod(String id, JsonNode pod, List<String> out) {
        JsonNode sc = pod.path("securityContext");
        require(sc.path("runAsNonRoot").asBoolean(false), id + ": securityContext.runAsNonRoot must be true", out);
        require(sc.path("runAsUser").asInt(0) > 0, id + ": securityContext.runAsUser must be a non-zero uid", out);
        require("RuntimeDefault".equals(sc.path("seccompProfile").path("type").asText()),
                id + ": securityContext.seccompProfile.type must be RuntimeDefault", out);
        require(!pod.path("automountServiceAccountToken").asBoolean(true),
                id + ": automountServiceAccountToken must be false", out);
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            require(!pod.path(host).asBoolean(false), id + ": " + host + " must not be set", out);
        }
        for (JsonNode v : pod.path("volumes")) {
            require(!v.has("hostPath"), id + ": volume " + v.path("name").asText() + " must not be a hostPath", out);
        }
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : pod.path(list)) {
                container(id + "/" + c.path("name").asText(), c, list.equals("containers"), out);
            }
        }
    }

    private static void container(String id, JsonNode c, boolean serving, List<String> out) {
        JsonNode sc = c.path("securityContext");
        require(sc.path("allowPrivilegeEscalation").isBoolean() && !sc.path("allowPrivilegeEscalation").asBoolean(),
                id + ": securityContext.allowPrivilegeEscalation must be false", out);
        require(!sc.path("privileged").asBoolean(false), id + ": securityContext.privileged must not be true", out);
        require(sc.path("readOnlyRootFilesystem").asBoolean(false),
                id + ": securityContext.readOnlyRootFilesystem must be true", out);
        boolean dropsAll = false;
        for (JsonNode cap : sc.path("capabilities").path("drop")) {
            dropsAll |= cap.asText().equals("ALL");
        }
        require(dropsAll, id + ": securityContext.capabilities.drop must hold ALL", out);
        require(sc.path("capabilities").path("add").isEmpty(), id + ": no capability may be added", out);
        JsonNode res = c.path("resources");
        require(res.path("requests").has("cpu"), id + ": resources.requests.cpu must be set", out);
        require(res.path("requests").has("memory"), id + ": resources.requests.memory must be set", out);
        require(res.path("limits").has("memory"), id + ": resources.limits.memory must be set", out);
        if (serving) {
            require(c.has("readinessProbe"), id + ": readinessProbe must be set", out);
            require(c.has("livenessProbe"), id + ": livenessProbe must be set", out);
        }
        String image = c.path("image").asText();
        String tag = image.contains("@") ? "digest" : image.matches(".*:[^:/]+$") ? image.replaceFirst(".*:", "") : "";
        require(!tag.isEmpty() && !tag.equals("latest"), id + ": image " + image + " must name a tag other than latest", out);
    }

    /** Conduit's Deployment: a startup probe, and a grace period that lets the drain end before SIGKILL. */
    private static void conduitDrain(List<ObjectNode> objects, List<String> out) {
        ManifestRender.find(objects, "Deployment", "conduit").ifPresent(d -> {
            JsonNode pod = d.path("spec").path("template").path("spec");
            JsonNode c = pod.path("containers").get(0);
            require(c.has("startupProbe"), "Deployment/conduit/conduit: startupProbe must be set", out);
            Map<String, String> config = configMap(objects, "conduit-config");
            Duration shutdown = Duration.parse("PT" + config.getOrDefault("QUARKUS_SHUTDOWN_TIMEOUT", "0s").toUpperCase());
            long preStop = c.path("lifecycle").path("preStop").path("sleep").path("seconds").asLong(0);
            long grace = pod.path("terminationGracePeriodSeconds").asLong(30);
            long needed = preStop + shutdown.toSeconds() + EXIT_MARGIN.toSeconds();
            require(grace >= needed, "Deployment/conduit: terminationGracePeriodSeconds " + grace + " must cover preStop "
                    + preStop + " s + QUARKUS_SHUTDOWN_TIMEOUT " + shutdown.toSeconds() + " s + " + EXIT_MARGIN.toSeconds() + " s", out);
        });
    }

    static Map<String, String> configMap(List<ObjectNode> objects, String name) {
        Map<String, String> data = new java.util.LinkedHashMap<>();
        ManifestRender.find(objects, "ConfigMap", name)
                .ifPresent(cm -> cm.path("data").fields().forEachRemaining(e -> data.put(e.getKey(), e.getValue().asText())));
        return data;
    }

    private static void require(boolean ok, String finding, List<String> out) {
        if (!ok) {
            out.add(finding);
        }
    }
}
