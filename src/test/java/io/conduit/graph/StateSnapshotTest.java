package io.conduit.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.CheckpointSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which pauses wait for a client's answer: a node's {@code interrupt()}, not a static breakpoint. */
class StateSnapshotTest {

    private static StateSnapshot pausedAt(Interrupt... interrupts) {
        return new StateSnapshot("t", "", "cp", null, 1, CheckpointSource.LOOP, null, List.of("n"), List.of(interrupts), Map.of(), Map.of(), 0);
    }

    @Test
    void aNodesInterruptIsAnsweredABreakpointIsPassed() {
        assertThat(new Interrupt("i", "?", "n", "task", Interrupt.When.DURING).answerable()).isTrue();
        assertThat(new Interrupt("i", "?", "n", "task", null).answerable()).isTrue();
        assertThat(new Interrupt("i", null, "n", "task", Interrupt.When.BEFORE).answerable()).isFalse();
        assertThat(new Interrupt("i", null, "n", "task", Interrupt.When.AFTER).answerable()).isFalse();
    }

    @Test
    void aThreadWaitsForAnAnswerOnlyAtANodesInterrupt() {
        assertThat(pausedAt(new Interrupt("b", null, "n", "task", Interrupt.When.BEFORE)).waitsForAnswer()).isFalse();
        assertThat(pausedAt().waitsForAnswer()).isFalse();
        assertThat(pausedAt(new Interrupt("b", null, "n", "task", Interrupt.When.BEFORE), new Interrupt("i", "?", "m", "task", Interrupt.When.DURING)).waitsForAnswer())
                .isTrue();
    }
}
