package io.conduit.blueprints.tutor;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where the tutor's tools read the course material: rag_search from a retrieval service over HTTP or from the built-in
 * demo course ({@link BuiltinCourse}); get_guide from HTTP, Postgres, the built-in course, or nowhere. Chosen in
 * {@code conduit.blueprints.tutor.retrieval.source} and {@code guide.source}; left unset, the built-in course is taken
 * only where nothing real is configured and the service is a demo anyway (dev mode, or the simulated model): a
 * retrieval URL that is set, or a real model outside dev mode, never gets it in place of the service.
 *
 * @param retrieval {@value #HTTP} or {@value #BUILTIN}
 * @param url the retrieval service's URL, for {@value #HTTP}
 * @param guide {@value #HTTP}, {@value #POSTGRES}, {@value #BUILTIN} or {@value #NONE}
 * @param byDefault the built-in course was taken because nothing was set (said loudly at start-up)
 * @param why for {@code byDefault}: dev mode or the simulated model
 */
record CourseSources(String retrieval, String url, String guide, boolean byDefault, String why) {

    static final String HTTP = "http";
    static final String BUILTIN = "builtin";
    static final String POSTGRES = "postgres";
    static final String NONE = "none";
    static final String DEFAULT_URL = "http://127.0.0.1:8090/search";
    private static final String PREFIX = "conduit.blueprints.tutor.";

    static CourseSources of(TutorConfig config, boolean devMode, boolean scriptedModel) {
        return of(config.retrieval().source(), config.retrieval().url(), config.guide().source(), devMode, scriptedModel);
    }

    static CourseSources of(Optional<String> retrievalSource, Optional<String> retrievalUrl, Optional<String> guideSource,
                            boolean devMode, boolean scriptedModel) {
        Optional<String> url = retrievalUrl.map(String::strip).filter(u -> !u.isEmpty());
        Optional<String> chosen = choice(retrievalSource, "retrieval.source", Set.of(HTTP, BUILTIN));
        boolean demo = devMode || scriptedModel;
        String retrieval = chosen.orElse(url.isEmpty() && demo ? BUILTIN : HTTP);
        String guide = choice(guideSource, "guide.source", Set.of(HTTP, POSTGRES, BUILTIN, NONE))
                .orElse(retrieval.equals(BUILTIN) ? BUILTIN : NONE);
        boolean byDefault = chosen.isEmpty() && retrieval.equals(BUILTIN);
        return new CourseSources(retrieval, url.orElse(DEFAULT_URL), guide, byDefault,
                scriptedModel ? "the simulated model" : devMode ? "dev mode" : null);
    }

    private static Optional<String> choice(Optional<String> value, String key, Set<String> allowed) {
        Optional<String> v = value.map(s -> s.strip().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty());
        if (v.isPresent() && !allowed.contains(v.get())) {
            throw new IllegalStateException(PREFIX + key + " is one of " + String.join(", ", allowed.stream().sorted().toList())
                    + ", not " + value.get());
        }
        return v;
    }

    boolean builtinSearch() {
        return retrieval.equals(BUILTIN);
    }

    /** The start-up line saying where the material comes from; a WARN when the built-in course was taken by default. */
    String describe() {
        if (byDefault) {
            return "Tutor: no retrieval service set (" + PREFIX + "retrieval.url) and " + why + ": rag_search and get_guide read "
                    + "the built-in demo course (" + BuiltinCourse.TITLE + ", " + PREFIX + "retrieval.source=builtin)"
                    + (guide.equals(BUILTIN) ? "" : " - get_guide: " + guide)
                    + " - a demo, not your course material";
        }
        return "Tutor: rag_search " + (builtinSearch() ? "reads the built-in demo course (" + BuiltinCourse.TITLE + ")" : "calls " + url)
                + "; get_guide: " + (guide.equals(BUILTIN) ? "the built-in demo course's guide" : guide);
    }
}
