package io.conduit.api;

import io.conduit.runs.InvalidInputException;

/**
 * The {@code xray} query parameter of {@code GET /assistants/{id}/graph}, read as LangGraph's server reads it:
 * {@code true} draws every level of subgraphs, a whole number from 1 that many levels, {@code false} or nothing none.
 */
final class XrayParam {

    private XrayParam() {
    }

    /** The levels to draw: 0 for none, {@link Integer#MAX_VALUE} for all; 422 naming {@code xray} for anything else. */
    static int levels(String raw) {
        if (raw == null || raw.isEmpty() || raw.equals("false") || raw.equals("False")) {
            return 0;
        }
        if (raw.equals("true") || raw.equals("True")) {
            return Integer.MAX_VALUE;
        }
        try {
            int n = Integer.parseInt(raw);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below, as a number below 1 is
        }
        throw new InvalidInputException("xray", "must be true, false or a whole number of levels from 1");
    }
}
