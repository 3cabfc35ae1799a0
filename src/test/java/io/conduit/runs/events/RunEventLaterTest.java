package io.conduit.runs.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An event whose data is written when first asked for: not before, once, and the same as an event made whole. */
class RunEventLaterTest {

    @Test
    void itsDataIsWrittenOnceWhenFirstAskedFor() {
        AtomicInteger writes = new AtomicInteger();
        RunEvent e = RunEvent.later(4, "r", "values", "", () -> {
            writes.incrementAndGet();
            return "{\"messages\":[]}";
        });
        assertThat(e.seq()).isEqualTo(4);
        assertThat(e.mode()).isEqualTo("values");
        assertThat(e.terminal()).isFalse();
        assertThat(e.kept()).isFalse();
        assertThat(writes).hasValue(0);

        assertThat(e.length()).isEqualTo(15);
        assertThat(e.data()).isEqualTo("{\"messages\":[]}");
        assertThat(e.retained()).isEqualTo(15);
        assertThat(writes).hasValue(1);
        assertThat(e).isEqualTo(new RunEvent(4, "r", "values", "", "{\"messages\":[]}")).hasSameHashCodeAs(
                new RunEvent(4, "r", "values", "", "{\"messages\":[]}"));
        assertThat(e.text()).isNull();
    }
}
