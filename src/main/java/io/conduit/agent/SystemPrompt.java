package io.conduit.agent;

import io.conduit.agent.message.SystemMessage;
import io.conduit.graph.State;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;

/** The system message every model call starts with: instructions, the date and time, the user, the summary. */
final class SystemPrompt {

    private SystemPrompt() {
    }

    static SystemMessage of(String instructions, State state, Clock clock) {
        StringBuilder sb = new StringBuilder(instructions);
        sb.append("\n\nCurrent date and time: ").append(ZonedDateTime.now(clock).format(DateTimeFormatter.RFC_1123_DATE_TIME));
        Map<String, String> memories = new TreeMap<>(state.get(AgentState.USER_CONTEXT).memories());
        if (!memories.isEmpty()) {
            sb.append("\n\nWhat you know about the user:");
            memories.forEach((k, v) -> sb.append("\n- ").append(k).append(": ").append(v));
        }
        String summary = state.get(AgentState.SUMMARY);
        if (!summary.isBlank()) {
            sb.append("\n\nSummary of the earlier conversation:\n").append(summary);
        }
        return new SystemMessage("system", sb.toString());
    }
}
