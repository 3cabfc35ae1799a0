package io.conduit.blueprints.tutor;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.tools.Tool;
import io.smallrye.mutiny.Uni;
import java.util.Set;

/** get_guide from the built-in demo course ({@code guide.source=builtin}): its one teaching guide, whatever the subject. */
final class BuiltinCourseGuide implements Tool {

    private final BuiltinCourse course;

    BuiltinCourseGuide(BuiltinCourse course) {
        this.course = course;
    }

    @Override
    public String name() {
        return TutorTools.GET_GUIDE;
    }

    @Override
    public String description() {
        return TutorTools.GUIDE_DESCRIPTION;
    }

    @Override
    public String parametersSchema() {
        return TutorTools.GUIDE_SCHEMA;
    }

    @Override
    public Set<String> injected() {
        return Set.of("subject");
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        return Uni.createFrom().item(course.guide());
    }
}
