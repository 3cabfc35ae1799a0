package io.conduit.agent;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where a turn stands; stored and streamed as its lowercase name ({@code ""} before the first turn). */
public enum Phase {
    NONE(""), PLAN("plan"), EXECUTE("execute"), VERIFY("verify"), REPLAN("replan"), GENERATE("generate"),
    ANSWERED("answered"), REFUSED("refused"), DONE("done"),
    /** The planner called a tool the client runs: the turn ends, and the next one starts with its result. */
    CLIENT_TOOLS("client_tools");

    private final String wire;

    Phase(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static Phase of(String wire) {
        for (Phase p : values()) {
            if (p.wire.equals(wire)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown phase: " + wire);
    }
}
