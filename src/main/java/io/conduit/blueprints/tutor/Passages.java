package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The retrieval service's answer as passages, and passages as the text a model reads. */
final class Passages {

    private static final int MATERIAL_PASSAGES = 8;

    private Passages() {
    }

    /**
     * {@code {"results": [...]}} or a bare list; each item's text is {@code text}, {@code content} or
     * {@code page_content}; its {@code id}, {@code source} and {@code score} are kept, and every other field goes into
     * its metadata. Empty when the body is not such JSON.
     */
    static List<Passage> parse(String body, String query) {
        JsonNode root;
        try {
            root = JsonCodec.MAPPER.readTree(body);
        } catch (Exception notJson) {
            return List.of();
        }
        JsonNode items = root != null && root.isArray() ? root : root == null ? null : root.get("results");
        if (items == null || !items.isArray()) {
            return List.of();
        }
        List<Passage> out = new ArrayList<>();
        for (JsonNode item : items) {
            String text = firstText(item, "text", "content", "page_content");
            if (text == null || text.isBlank()) {
                continue;
            }
            Map<String, Object> metadata = new LinkedHashMap<>();
            item.properties().forEach(f -> {
                if (!List.of("id", "text", "content", "page_content", "score", "source", "metadata").contains(f.getKey())) {
                    metadata.put(f.getKey(), JsonCodec.MAPPER.convertValue(f.getValue(), Object.class));
                }
            });
            if (item.path("metadata").isObject()) {
                item.get("metadata").properties().forEach(f -> metadata.put(f.getKey(), JsonCodec.MAPPER.convertValue(f.getValue(), Object.class)));
            }
            String source = firstText(item, "source");
            if (source == null && metadata.get("source") instanceof String s) {
                source = s;
            }
            String id = firstText(item, "id");
            Double score = item.path("score").isNumber() ? item.get("score").asDouble() : null;
            out.add(new Passage(id != null ? id : digest(source + "\n" + text), text, source, score, metadata, query));
        }
        return out;
    }

    /** Passages as numbered text, with their sources. */
    static String render(List<Passage> passages) {
        if (passages.isEmpty()) {
            return "No passages found.";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < passages.size(); i++) {
            Passage p = passages.get(i);
            b.append('[').append(i + 1).append("] ");
            if (p.source() != null) {
                b.append('(').append(p.source()).append(") ");
            }
            b.append(p.text().strip()).append('\n');
        }
        return b.toString().strip();
    }

    /** What a quiz is written from: the newest passages, at most a handful. */
    static String material(List<Passage> passages) {
        List<Passage> newest = passages.subList(Math.max(0, passages.size() - MATERIAL_PASSAGES), passages.size());
        return newest.isEmpty() ? "(none was found; use what the course usually covers on the topic)" : render(newest);
    }

    private static String firstText(JsonNode item, String... names) {
        for (String n : names) {
            if (item.path(n).isTextual()) {
                return item.get(n).asText();
            }
        }
        return null;
    }

    private static String digest(String s) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
