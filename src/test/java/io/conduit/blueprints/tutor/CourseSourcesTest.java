package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where the tutor reads its material: the built-in demo course stands in only where nothing real is set and the service is a demo. */
class CourseSourcesTest {

    private static final Optional<String> UNSET = Optional.empty();

    @Test
    void withNothingSetTheBuiltInCourseServesDevModeAndTheSimulatedModelAndSaysSo() {
        CourseSources dev = CourseSources.of(UNSET, UNSET, UNSET, true, false);
        assertThat(dev.builtinSearch()).isTrue();
        assertThat(dev.guide()).isEqualTo("builtin");
        assertThat(dev.byDefault()).isTrue();
        assertThat(dev.describe()).startsWith("Tutor: no retrieval service set (conduit.blueprints.tutor.retrieval.url) and dev mode:")
                .contains("built-in demo course").contains("retrieval.source=builtin").contains("not your course material");

        CourseSources simulated = CourseSources.of(UNSET, UNSET, UNSET, false, true);
        assertThat(simulated.builtinSearch()).isTrue();
        assertThat(simulated.describe()).contains("and the simulated model:");
    }

    @Test
    void aConfiguredServiceOrARealModelInProdIsNeverReplaced() {
        CourseSources configured = CourseSources.of(UNSET, Optional.of("https://rag.example.edu/search"), UNSET, true, true);
        assertThat(configured.retrieval()).isEqualTo("http");
        assertThat(configured.url()).isEqualTo("https://rag.example.edu/search");
        assertThat(configured.guide()).isEqualTo("none");
        assertThat(configured.byDefault()).isFalse();
        assertThat(configured.describe()).isEqualTo("Tutor: rag_search calls https://rag.example.edu/search; get_guide: none");

        CourseSources prod = CourseSources.of(UNSET, UNSET, UNSET, false, false);
        assertThat(prod.retrieval()).as("prod on a real model keeps the documented default service").isEqualTo("http");
        assertThat(prod.url()).isEqualTo("http://127.0.0.1:8090/search");
        assertThat(prod.guide()).isEqualTo("none");
    }

    @Test
    void anExplicitChoiceIsTakenAsItIsAndAWrongOneStopsStartUp() {
        CourseSources builtin = CourseSources.of(Optional.of("builtin"), UNSET, UNSET, false, false);
        assertThat(builtin.builtinSearch()).isTrue();
        assertThat(builtin.guide()).isEqualTo("builtin");
        assertThat(builtin.byDefault()).isFalse();
        assertThat(builtin.describe()).startsWith("Tutor: rag_search reads the built-in demo course");

        CourseSources http = CourseSources.of(Optional.of(" HTTP "), UNSET, Optional.of("postgres"), true, true);
        assertThat(http.retrieval()).isEqualTo("http");
        assertThat(http.guide()).isEqualTo("postgres");

        assertThatThrownBy(() -> CourseSources.of(Optional.of("files"), UNSET, UNSET, true, true))
                .hasMessage("conduit.blueprints.tutor.retrieval.source is one of builtin, http, not files");
        assertThatThrownBy(() -> CourseSources.of(UNSET, UNSET, Optional.of("disk"), true, true))
                .hasMessage("conduit.blueprints.tutor.guide.source is one of builtin, http, none, postgres, not disk");
    }
}
