package io.conduit.blueprints.analyst;

import io.conduit.graph.Identified;
import java.util.List;

/** One answered question, recorded by {@code save_messages}: the run, the question, the answer and the tools used. */
public record Turn(String id, String question, String answer, List<String> tools, int iterations) implements Identified {
}
