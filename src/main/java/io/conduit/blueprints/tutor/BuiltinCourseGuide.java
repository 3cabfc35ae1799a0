package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;

/** get_guide from the built-in demo course ({@code guide.source=builtin}): its one teaching guide, whatever the subject. */
final class BuiltinCourseGuide extends GuideTool {

    private final BuiltinCourse course;

    BuiltinCourseGuide(BuiltinCourse course) {
        this.course = course;
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        return Uni.createFrom().item(course.guide());
    }
}
