package io.conduit.blueprints.tutor;

import io.conduit.tools.Tool;
import java.util.Set;

/**
 * The tutor's {@code get_guide} as the model sees it (name, description, schema, the subject injected from the thread),
 * whatever source answers it: each source only says how it finds the guide ({@link #execute}).
 */
abstract class GuideTool implements Tool {

    @Override
    public final String name() {
        return TutorTools.GET_GUIDE;
    }

    @Override
    public final String description() {
        return TutorTools.GUIDE_DESCRIPTION;
    }

    @Override
    public final String parametersSchema() {
        return TutorTools.GUIDE_SCHEMA;
    }

    @Override
    public final Set<String> injected() {
        return Set.of("subject");
    }
}
