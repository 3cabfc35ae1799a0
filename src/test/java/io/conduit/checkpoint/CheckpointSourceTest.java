package io.conduit.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The source names are stored in every checkpoint row and sent to clients: they may never change. */
class CheckpointSourceTest {

    /** Every name stores hold and LangGraph clients read, and the source it stands for. */
    private static final Map<String, CheckpointSource> STORED = Map.of(
            "input", CheckpointSource.INPUT,
            "loop", CheckpointSource.LOOP,
            "update", CheckpointSource.UPDATE,
            "fork", CheckpointSource.FORK);

    @Test
    void everyStoredNameReadsAsItsSourceAndIsWrittenBackTheSame() {
        STORED.forEach((wire, source) -> {
            assertThat(CheckpointSource.of(wire)).as(wire).isSameAs(source);
            assertThat(source.wire()).as(wire).isEqualTo(wire);
        });
    }

    @Test
    void everySourceHasAStoredName() {
        assertThat(Arrays.stream(CheckpointSource.values()).map(CheckpointSource::wire)).containsExactlyInAnyOrderElementsOf(STORED.keySet());
    }

    @Test
    void anUnknownNameIsRefusedAndNamed() {
        for (String wire : new String[] {"sideways", "LOOP", "Loop", " loop", ""}) {
            assertThatThrownBy(() -> CheckpointSource.of(wire)).as("'%s'", wire).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown checkpoint source: " + wire)
                    .hasMessageContaining("[input, loop, update, fork]");
        }
        assertThatThrownBy(() -> CheckpointSource.of(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown checkpoint source: null");
    }
}
