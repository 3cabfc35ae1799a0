package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A classic join ends with the run's end, its error, or else the thread's final values and the end. */
class JoinEndTest {

    private final List<String> got = new ArrayList<>();
    private final RunEventListener client = new RunEventListener() {
        @Override
        public void onEvent(RunEvent event) {
            got.add(event.mode());
        }

        @Override
        public void onReplay(RunEvent event) {
            got.add("replayed " + event.mode());
        }

        @Override
        public void onEnd() {
            got.add("closed");
        }
    };
    private final JoinEnd join = new JoinEnd(client, () -> got.add("final values and end"));

    @Test
    void aRunThatEndedWithItsEndJustCloses() {
        join.onReplay(frame(1, "values"));
        join.onEvent(frame(2, "end"));
        join.onEnd();
        assertThat(got).containsExactly("replayed values", "end", "closed");
    }

    @Test
    void aRunThatFailedEndsWithItsErrorOnly() {
        join.onEvent(frame(1, "error"));
        join.onEnd();
        assertThat(got).containsExactly("error", "closed");
    }

    @Test
    void aRelayedRunWhoseLastFramesWereLostEndsWithTheFinalValues() {
        join.onEvent(frame(1, "messages"));
        join.onEnd(); // ended from its record: its values and end never came
        assertThat(got).containsExactly("messages", "final values and end");
    }

    @Test
    void theNoticeThatAReplaysFirstEventsWereDroppedIsNoEnd() {
        join.onReplay(RunEventLogs.CLASSIC_NOTICE.of("r1", 3));
        join.onEvent(frame(4, "messages"));
        join.onEnd();
        assertThat(got).containsExactly("replayed error", "messages", "final values and end");
    }

    private static RunEvent frame(long seq, String mode) {
        return new RunEvent(seq, "r1", mode, "", "{}");
    }
}
