package io.conduit.blueprints.tutor;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The tutor blueprint: {@code conduit.blueprints.tutor.*} (docs/blueprints/tutor.md). */
@ConfigMapping(prefix = "conduit.blueprints.tutor")
public interface TutorConfig {

    /** The subject when neither the input nor {@code config.configurable.subject} names one. */
    @WithDefault("general")
    String defaultSubject();

    /** Questions in a quiz when the model does not say. */
    @WithDefault("3")
    int questions();

    /** Model calls allowed for one structured answer (difficulty, queries, questions, a verdict), the first included. */
    @WithDefault("3")
    int structuredAttempts();

    /** Rounds of rag_search / get_guide calls in one answer; past them the model answers without tools. */
    @WithDefault("3")
    int maxToolRounds();

    /** Supersteps one run may take (a quiz of n questions takes about 2n + 6 inside its subgraph). */
    @WithDefault("50")
    int recursionLimit();

    Retrieval retrieval();

    Guide guide();

    /**
     * What rag_search searches: the retrieval service (POST {query, subject, top_k}, answering {results: [{text, ...}]})
     * or the built-in demo course ({@link CourseSources}).
     */
    interface Retrieval {

        /** {@code http} or {@code builtin}; unset, {@link CourseSources#of} decides. */
        Optional<String> source();

        /** The retrieval service; unset: {@value CourseSources#DEFAULT_URL} when the source is {@code http}. */
        Optional<String> url();

        /** One attempt; a timeout becomes the tool message "retrieval timed out". */
        @WithDefault("10s")
        Duration timeout();

        /** Tries of a call that failed with a retryable error (5xx, 429, connection reset), the first included. */
        @WithDefault("2")
        int maxAttempts();

        /** Passages asked for when the model does not say. */
        @WithDefault("4")
        int topK();

        /** Request headers (an API key); their values are redacted from what the model reads. */
        Map<String, String> headers();

        @WithDefault("8000")
        int maxResponseChars();
    }

    /** Where get_guide reads the course's teaching guide. */
    interface Guide {

        /**
         * {@code http} (GET {@link #url()}), {@code postgres} (the table conduit_course_guides), {@code builtin} (the
         * built-in demo course's) or {@code none}; unset: {@code builtin} when rag_search reads the built-in course,
         * else {@code none}.
         */
        Optional<String> source();

        /** For {@code http}: a URL template with {@code {subject}}. */
        Optional<String> url();

        @WithDefault("10s")
        Duration timeout();

        Map<String, String> headers();
    }
}
