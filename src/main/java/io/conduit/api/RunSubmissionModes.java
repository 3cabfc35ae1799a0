package io.conduit.api;

import com.fasterxml.jackson.databind.node.TextNode;
import io.conduit.runs.RunSubmission;
import java.util.List;

/** {@code stream_mode} from a query parameter: a mode, or a JSON list of modes (how the SDK sends it). */
final class RunSubmissionModes {

    private RunSubmissionModes() {
    }

    static List<String> parse(String q) {
        return RunSubmission.modes(TextNode.valueOf(q));
    }
}
