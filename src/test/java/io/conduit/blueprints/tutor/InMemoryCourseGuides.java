package io.conduit.blueprints.tutor;

import io.conduit.checkpoint.StorableText;
import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Course guides in a map, for the tutor's tests: it behaves as the Postgres table does ({@link CourseGuidesContractTest}). */
final class InMemoryCourseGuides implements CourseGuides {

    private final Map<String, String> guides = new ConcurrentHashMap<>();

    @Override
    public Uni<Optional<String>> guide(String subject) {
        return Uni.createFrom().item(() -> StorableText.problem(subject) != null ? Optional.empty() : Optional.ofNullable(guides.get(subject)));
    }

    @Override
    public Uni<Void> put(String subject, String guide) {
        return Uni.createFrom().item(() -> {
            String problem = CourseGuides.problem(subject, guide);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            guides.put(subject, guide);
            return null;
        });
    }
}
