package io.conduit.deploy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Renders a kustomization of {@code k8s/} as {@code kubectl kustomize} would, for the tests: no kustomize or kubectl
 * is packaged for the machines that run them. It knows only the features our manifests use, and refuses any other:
 * {@code resources} (files of one or more objects, or directories with a kustomization, rendered first, as
 * kustomize nests them), {@code patches} by {@code path}, applied as strategic merges to the object of the patch's
 * kind and name (maps merge, lists of named items merge by name, other lists are replaced, {@code null} removes), and
 * {@code images} ({@code newName}, {@code newTag} for the containers whose image is {@code name}).
 */
public final class ManifestRender {

    static final YAMLMapper YAML = new YAMLMapper();
    private static final Set<String> KNOWN = Set.of("apiVersion", "kind", "resources", "patches", "images");

    private ManifestRender() {
    }

    /** The objects of the kustomization in {@code dir}, in kustomize's order (resources as listed). */
    public static List<ObjectNode> render(Path dir) throws IOException {
        JsonNode k = YAML.readTree(dir.resolve("kustomization.yaml").toFile());
        k.fieldNames().forEachRemaining(f -> {
            if (!KNOWN.contains(f)) {
                throw new IllegalArgumentException(dir + ": ManifestRender does not render '" + f + "'");
            }
        });
        List<ObjectNode> objects = new ArrayList<>();
        for (JsonNode r : k.path("resources")) {
            Path p = dir.resolve(r.asText()).normalize();
            objects.addAll(Files.isDirectory(p) ? render(p) : read(p));
        }
        for (JsonNode patch : k.path("patches")) {
            if (patch.size() != 1 || !patch.has("path")) {
                throw new IllegalArgumentException(dir + ": only patches by path are rendered: " + patch);
            }
            for (ObjectNode p : read(dir.resolve(patch.get("path").asText()))) {
                merge(find(objects, p.path("kind").asText(), p.path("metadata").path("name").asText())
                        .orElseThrow(() -> new IllegalArgumentException(dir + ": a patch matches no object: " + p)), p);
            }
        }
        for (JsonNode image : k.path("images")) {
            objects.forEach(o -> retag(o, image));
        }
        return objects;
    }

    /** Every object in a YAML file of one or more documents. */
    public static List<ObjectNode> read(Path file) throws IOException {
        List<ObjectNode> out = new ArrayList<>();
        try (JsonParser parser = YAML.createParser(file.toFile())) {
            var docs = YAML.readValues(parser, JsonNode.class);
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc instanceof ObjectNode o && !o.isEmpty()) {
                    out.add(o);
                }
            }
        }
        return out;
    }

    public static Optional<ObjectNode> find(List<ObjectNode> objects, String kind, String name) {
        return objects.stream()
                .filter(o -> kind.equals(o.path("kind").asText()) && name.equals(o.path("metadata").path("name").asText()))
                .findFirst();
    }

    /** A strategic merge of {@code patch} into {@code target}, as far as our patches need one. */
    static void merge(ObjectNode target, ObjectNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.startsWith("$")) {
                throw new IllegalArgumentException("ManifestRender does not render the directive " + key);
            }
            JsonNode current = target.get(key);
            if (value.isNull()) {
                target.remove(key);
            } else if (current instanceof ObjectNode c && value instanceof ObjectNode v) {
                merge(c, v);
            } else if (current instanceof ArrayNode c && value instanceof ArrayNode v && named(v)) {
                for (JsonNode item : v) {
                    Optional<JsonNode> same = stream(c).filter(i -> i.path("name").equals(item.get("name"))).findFirst();
                    if (same.isPresent()) {
                        merge((ObjectNode) same.get(), (ObjectNode) item);
                    } else {
                        c.add(item.deepCopy());
                    }
                }
            } else {
                target.set(key, value.deepCopy());
            }
        }
    }

    private static boolean named(ArrayNode items) {
        return !items.isEmpty() && stream(items).allMatch(i -> i.isObject() && i.has("name"));
    }

    private static java.util.stream.Stream<JsonNode> stream(ArrayNode a) {
        return java.util.stream.StreamSupport.stream(a.spliterator(), false);
    }

    /** kustomize's image transformer: every container (at any depth) whose image is the entry's name, retagged. */
    private static void retag(JsonNode node, JsonNode image) {
        if (node instanceof ObjectNode o) {
            for (String list : List.of("containers", "initContainers")) {
                for (JsonNode c : o.path(list)) {
                    String current = c.path("image").asText();
                    String bare = current.replaceFirst(":[^:/]+$", "");
                    if (bare.equals(image.path("name").asText())) {
                        String name = image.has("newName") ? image.get("newName").asText() : bare;
                        String tag = image.has("newTag") ? ":" + image.get("newTag").asText()
                                : current.substring(bare.length());
                        ((ObjectNode) c).set("image", TextNode.valueOf(name + tag));
                    }
                }
            }
            o.elements().forEachRemaining(child -> retag(child, image));
        } else if (node instanceof ArrayNode a) {
            a.forEach(child -> retag(child, image));
        }
    }
}
