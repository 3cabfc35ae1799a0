package io.conduit.graph;

import io.conduit.checkpoint.Stored;

/**
 * A node to run in a superstep. Its id is derived from the checkpoint it follows and its position, so re-running
 * the step (after a crash or an interrupt) finds the writes the task recorded before.
 */
record Task(String id, String node, Stored input, int index) {

    static String id(String checkpointId, int index) {
        return checkpointId + "." + index;
    }
}
