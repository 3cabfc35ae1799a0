package io.conduit.blueprints.tutor;

import io.conduit.checkpoint.StorableText;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * The courses' teaching guides on file, one per subject: what get_guide reads with {@code guide.source=postgres}. A
 * port, so that the tutor touches no database: the Postgres implementation is in {@code io.conduit.persistence}, its
 * table made by the tutor's own migration ({@code db/blueprints/tutor}).
 */
public interface CourseGuides {

    /** The guide on file for exactly {@code subject}, or empty; a subject no store can keep has none. */
    Uni<Optional<String>> guide(String subject);

    /** Files {@code guide} as {@code subject}'s, replacing any; fails with {@link IllegalArgumentException} on {@link #problem}. */
    Uni<Void> put(String subject, String guide);

    /**
     * Why {@code subject}'s guide cannot be filed, or null: text no store keeps as given ({@link StorableText}). One rule
     * for every implementation, so the in-memory one refuses what Postgres cannot keep.
     */
    static String problem(String subject, String guide) {
        String p = StorableText.problem(subject);
        if (p != null) {
            return "the subject " + p;
        }
        p = StorableText.problem(guide);
        return p == null ? null : "the guide " + p;
    }
}
