package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The built-in demo course ({@code tutor/builtin-course.json}): a short biology course on photosynthesis, its passages
 * and its teaching guide, so that the tutor's demo runs with no retrieval service. A search ranks the passages by the
 * share of the query's words they hold (a word matches the passage's words it starts, or that start it: "pigments"
 * finds "pigment"), and answers as a retrieval service does: {@code {"results": [{id, text, source, score,
 * metadata}]}}.
 */
final class BuiltinCourse {

    static final String TITLE = "Biology: photosynthesis";
    private static final String RESOURCE = "tutor/builtin-course.json";
    private static final Set<String> STOP = Set.of("the", "and", "for", "with", "what", "how", "does", "why", "are", "its", "from",
            "into", "that", "this", "which", "who", "when", "where", "about", "course");
    private static final int MIN_PREFIX = 4;

    private record Entry(String id, String section, String text, List<String> words) {
    }

    private final String guide;
    private final List<Entry> passages;

    private BuiltinCourse(String guide, List<Entry> passages) {
        this.guide = guide;
        this.passages = passages;
    }

    static BuiltinCourse load() {
        try (InputStream in = BuiltinCourse.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the built-in course " + RESOURCE + " is missing from the class path");
            }
            JsonNode course = JsonCodec.MAPPER.readTree(in);
            List<Entry> passages = new ArrayList<>();
            for (JsonNode p : course.get("passages")) {
                String section = p.get("section").asText();
                String text = p.get("text").asText();
                passages.add(new Entry(p.get("id").asText(), section, text, words(section + " " + text)));
            }
            return new BuiltinCourse(course.get("guide").asText(), List.copyOf(passages));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The teaching guide; the course is one, whatever the subject. */
    String guide() {
        return guide;
    }

    /** At most {@code topK} passages holding words of the query, best first, as a retrieval service answers. */
    String search(String query, String subject, int topK) {
        List<String> asked = words(query).stream().filter(w -> !STOP.contains(w)).distinct().toList();
        record Scored(Entry entry, double score) {
        }
        List<Scored> found = new ArrayList<>();
        for (Entry e : passages) {
            long held = asked.stream().filter(w -> e.words().stream().anyMatch(pw -> matches(w, pw))).count();
            if (held > 0) {
                found.add(new Scored(e, Math.round(100.0 * held / asked.size()) / 100.0));
            }
        }
        found.sort(Comparator.comparingDouble(Scored::score).reversed()); // stable: the course's order among equals
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        ArrayNode results = out.putArray("results");
        for (Scored s : found.subList(0, Math.min(topK, found.size()))) {
            ObjectNode r = results.addObject();
            r.put("id", s.entry().id());
            r.put("text", s.entry().text());
            r.put("source", "built-in course: " + s.entry().section());
            r.put("score", s.score());
            ObjectNode metadata = r.putObject("metadata");
            metadata.put("course", TITLE);
            metadata.put("section", s.entry().section());
            metadata.put("subject", subject);
        }
        return out.toString();
    }

    private static boolean matches(String asked, String word) {
        return asked.equals(word) || asked.length() >= MIN_PREFIX && word.length() >= MIN_PREFIX
                && (word.startsWith(asked) || asked.startsWith(word));
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).filter(w -> w.length() >= 3).toList();
    }
}
