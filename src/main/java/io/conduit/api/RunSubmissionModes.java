package io.conduit.api;

import com.fasterxml.jackson.databind.node.TextNode;
import io.conduit.runs.StreamMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code stream_mode} from the query: a mode, or a JSON list of modes (how SDK 2.0 sends it), or the parameter repeated
 * once per mode (how SDK 1.x sends a list); null when absent.
 */
final class RunSubmissionModes {

    private RunSubmissionModes() {
    }

    static List<StreamMode> parse(List<String> params) {
        if (params == null || params.isEmpty()) {
            return null;
        }
        List<StreamMode> out = new ArrayList<>();
        for (String q : params) {
            for (StreamMode mode : StreamMode.parse(TextNode.valueOf(q))) {
                if (!out.contains(mode)) {
                    out.add(mode);
                }
            }
        }
        return out;
    }
}
