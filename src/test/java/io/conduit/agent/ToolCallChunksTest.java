package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ModelEvent.ToolCallDelta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What clients assemble from a message's tool-call chunks is what the message holds, whatever the model streamed. */
class ToolCallChunksTest {

    @Test
    void callsTheModelNeverStreamedAreSentWholeWhenItCompletes() {
        ToolCallChunks chunks = new ToolCallChunks();
        List<ToolCallDelta> owed = new ArrayList<>();

        List<ToolCall> calls = chunks.finish(List.of(new ToolCall("c1", "weather", "{\"city\":\"Lyon\"}"),
                new ToolCall(null, "time", "{}")), owed::add);

        assertThat(owed).hasSize(2);
        assertThat(owed.get(0)).isEqualTo(new ToolCallDelta(0, "c1", "weather", "{\"city\":\"Lyon\"}"));
        assertThat(owed.get(1).index()).isEqualTo(1);
        assertThat(owed.get(1).id()).startsWith("call_");
        assertThat(calls).extracting(ToolCall::id).containsExactly("c1", owed.get(1).id());
    }

    @Test
    void theEndOfArgumentsNoDeltaCarriedFollowsAndAnIdMadeForTheFirstDeltaStays() {
        ToolCallChunks chunks = new ToolCallChunks();
        ToolCallDelta first = chunks.chunk(new ToolCallDelta(0, null, "weather", "{\"city\":"));
        ToolCallDelta second = chunks.chunk(new ToolCallDelta(0, null, null, "\"Ly"));
        List<ToolCallDelta> owed = new ArrayList<>();

        List<ToolCall> calls = chunks.finish(List.of(new ToolCall(null, "weather", "{\"city\":\"Lyon\"}")), owed::add);

        assertThat(first.id()).startsWith("call_");
        assertThat(second.id()).isNull();
        assertThat(owed).containsExactly(new ToolCallDelta(0, null, null, "on\"}"));
        assertThat(calls).containsExactly(new ToolCall(first.id(), "weather", "{\"city\":\"Lyon\"}"));
    }
}
