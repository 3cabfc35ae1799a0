package io.conduit.agent;

import com.fasterxml.jackson.annotation.JsonValue;

/** How the planner's own answer is used; configured as {@code answer} or {@code route-only}. */
public enum PlannerMode {
    /** A planner answer without tool calls is final: no second model call for simple questions. */
    ANSWER,
    /** The planner only decides; the generator always answers. */
    ROUTE_ONLY;

    @JsonValue
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
