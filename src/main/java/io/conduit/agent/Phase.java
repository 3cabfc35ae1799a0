package io.conduit.agent;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where a turn stands; stored and streamed as its lowercase name ({@code ""} before the first turn). */
public enum Phase {
    NONE(""), PLAN("plan"), EXECUTE("execute"), VERIFY("verify"), REPLAN("replan"), GENERATE("generate"),
    ANSWERED("answered"), REFUSED("refused"), DONE("done");

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
