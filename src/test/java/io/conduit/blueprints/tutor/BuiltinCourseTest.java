package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in demo course answers a search as a retrieval service does, and the tutor reads it as one. */
class BuiltinCourseTest {

    private final BuiltinCourse course = BuiltinCourse.load();

    @Test
    void aSearchAnswersTheBestPassagesFirstInTheRetrievalServicesShape() throws Exception {
        JsonNode results = JsonCodec.MAPPER.readTree(course.search("chlorophyll pigments", "biology", 2)).get("results");
        assertThat(results).hasSize(2);
        JsonNode best = results.get(0);
        assertThat(best.get("id").asText()).isEqualTo("bio-photosynthesis-2");
        assertThat(best.get("score").asDouble()).isEqualTo(1.0);
        assertThat(best.get("source").asText()).isEqualTo("built-in course: Chlorophyll and light");
        assertThat(best.get("metadata").get("subject").asText()).isEqualTo("biology");
        assertThat(results.get(1).get("score").asDouble()).isLessThanOrEqualTo(1.0);

        List<Passage> read = Passages.parse(course.search("where does photosynthesis happen", "general", 4), "q");
        assertThat(read).hasSizeBetween(1, 4);
        assertThat(read.get(0).text()).contains("chloroplasts");
        List<String> ids = new ArrayList<>();
        read.forEach(p -> ids.add(p.id()));
        assertThat(ids).doesNotHaveDuplicates();
    }

    @Test
    void aQueryWithNothingInTheCourseFindsNothingAndTheGuideIsTheCourses() throws Exception {
        assertThat(JsonCodec.MAPPER.readTree(course.search("quantum chromodynamics", "physics", 4)).get("results")).isEmpty();
        assertThat(JsonCodec.MAPPER.readTree(course.search("the and what", "biology", 4)).get("results")).isEmpty();
        assertThat(course.guide()).contains("photosynthesis").contains("Goals");
    }
}
