package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;

/** get_guide from the guides on file ({@link CourseGuides}, {@code guide.source=postgres}): the thread's subject's. */
final class StoredCourseGuide extends GuideTool {

    private final CourseGuides guides;

    StoredCourseGuide(CourseGuides guides) {
        this.guides = guides;
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String subject = arguments.path("subject").asText();
        return guides.guide(subject).map(g -> g.orElse("No teaching guide is on file for " + subject + "."));
    }
}
