package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MillisTextTest {

    @Test
    void aTimeIsItsDecimalTextWhicheverWasFormattedBefore() {
        assertThat(MillisText.of(1_764_201_600_000L)).isEqualTo("1764201600000");
        assertThat(MillisText.of(1_764_201_600_001L)).isEqualTo("1764201600001");
        assertThat(MillisText.of(1_764_201_600_000L)).as("an older time, after a newer one").isEqualTo("1764201600000");
        assertThat(MillisText.of(0)).isEqualTo("0");
    }

    @Test
    void theSameMillisecondIsFormattedOnce() {
        String first = MillisText.of(1_764_201_600_123L);
        assertThat(MillisText.of(1_764_201_600_123L)).isSameAs(first);
    }
}
