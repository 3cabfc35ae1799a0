package io.conduit.api;

import com.fasterxml.jackson.databind.node.TextNode;
import io.conduit.runs.RunSubmission;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code stream_mode} from the query: a mode, or a JSON list of modes (how SDK 2.0 sends it), or the parameter repeated
 * once per mode (how SDK 1.x sends a list); null when absent.
 */
final class RunSubmissionModes {

    private RunSubmissionModes() {
    }

    static List<String> parse(List<String> params) {
        if (params == null || params.isEmpty()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String q : params) {
            for (String mode : RunSubmission.modes(TextNode.valueOf(q))) {
                if (!out.contains(mode)) {
                    out.add(mode);
                }
            }
        }
        return out;
    }
}
