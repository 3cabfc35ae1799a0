package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.persistence.PostgresCourseGuides;
import io.conduit.persistence.TestDatabase;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What get_guide needs of the guides on file, for every {@link CourseGuides}: in memory, and the Postgres table (the
 * local test database, where other tests' guides live too: every subject here is fresh).
 */
class CourseGuidesContractTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    static Stream<Named<Supplier<CourseGuides>>> guides() {
        return Stream.of(
                Named.of("in memory", InMemoryCourseGuides::new),
                Named.of("postgres", () -> new PostgresCourseGuides(TestDatabase.pool())));
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(WAIT);
    }

    private static String subject(String name) {
        return name + "-" + UUID.randomUUID();
    }

    @ParameterizedTest
    @MethodSource("guides")
    void aSubjectsGuideIsReadBackAndNoOtherSubjectSeesIt(Supplier<CourseGuides> store) {
        CourseGuides guides = store.get();
        String biology = subject("biology");
        String chemistry = subject("chemistry");
        await(guides.put(biology, "Start from what the student can observe."));

        assertThat(await(guides.guide(biology))).contains("Start from what the student can observe.");
        assertThat(await(guides.guide(chemistry))).isEmpty();
        // subjects are matched exactly, as the thread names them
        assertThat(await(guides.guide(biology.toUpperCase()))).isEmpty();
        assertThat(await(guides.guide(biology + " "))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("guides")
    void aNewGuideReplacesTheSubjectsOldOne(Supplier<CourseGuides> store) {
        CourseGuides guides = store.get();
        String biology = subject("biology");
        await(guides.put(biology, "first"));
        await(guides.put(biology, "second"));

        assertThat(await(guides.guide(biology))).contains("second");
    }

    @ParameterizedTest
    @MethodSource("guides")
    void theGuideIsKeptExactlyAsGiven(Supplier<CourseGuides> store) {
        CourseGuides guides = store.get();
        String subject = subject("biologie \"générale\" 🌱");
        String guide = "# Goals\n\tObserve first; \"quote\" \\ back\u0001slash, 🌱, \uFFFD\r\n" + "x".repeat(50_000);
        await(guides.put(subject, guide));

        assertThat(await(guides.guide(subject))).contains(guide);
    }

    @ParameterizedTest
    @MethodSource("guides")
    void textNoStoreCanKeepIsRefusedAndNeverFound(Supplier<CourseGuides> store) {
        CourseGuides guides = store.get();
        String nul = subject("bio\u0000logy");
        String lone = subject("bio\uD800logy");

        assertThatThrownBy(() -> await(guides.put(nul, "g"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the subject contains a NUL character");
        assertThatThrownBy(() -> await(guides.put(subject("biology"), "a\uDC00b"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the guide contains a lone surrogate");
        assertThat(await(guides.guide(nul))).isEqualTo(Optional.empty());
        assertThat(await(guides.guide(lone))).isEqualTo(Optional.empty());
    }
}
