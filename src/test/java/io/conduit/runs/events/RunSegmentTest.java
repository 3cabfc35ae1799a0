package io.conduit.runs.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.GraphEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunSegmentTest {

    private static final GraphEvent.Tag TASK = new GraphEvent.Tag("run-1", "thread-1", "", "generator", 3, "task-1");
    private static final GraphEvent.Tag OTHER_TASK = new GraphEvent.Tag("run-1", "thread-1", "", "summarizer", 4, "task-2");

    private record Fed(Object entry, long atMillis) {
    }

    private static List<Fed> fed(RunSegment segment, int from) {
        List<Fed> out = new ArrayList<>();
        segment.feed(from, (entry, atMillis) -> out.add(new Fed(entry, atMillis)));
        return out;
    }

    @Test
    void feedsBackEveryEntryAsItWasAddedWithItsTime() {
        RunSegment segment = new RunSegment("run-1", 1L << 20, 1);
        List<Fed> added = List.of(
                new Fed("began", 1_000),
                new Fed(new GraphEvent.Token(TASK, "m1", "Hel"), 1_001),
                new Fed(new GraphEvent.Token(TASK, "m1", "lo, "), 1_001),
                new Fed(new GraphEvent.Token(TASK, "m1", ""), 1_002),
                new Fed(new GraphEvent.Token(TASK, "m1", "wörld ✓"), 1_003),
                new Fed("a state event between two tokens", 1_004),
                new Fed(new GraphEvent.Token(TASK, "m1", "!"), 1_005),
                new Fed(new GraphEvent.Token(TASK, "m2", "another message"), 1_006),
                new Fed(new GraphEvent.Token(TASK, "m2", " goes on"), 1_007),
                new Fed(new GraphEvent.Token(OTHER_TASK, "m2", "same id, another task"), 1_008),
                new Fed(new GraphEvent.Token(OTHER_TASK, "m2", " and more"), 1_009));
        for (Fed f : added) {
            segment.add(f.entry(), f.atMillis());
        }

        assertThat(fed(segment, 0)).isEqualTo(added);
        assertThat(fed(segment, 4)).isEqualTo(added.subList(4, added.size()));
        segment.trim();
        assertThat(fed(segment, 0)).as("after the run ended and its arrays were trimmed").isEqualTo(added);
    }

    @Test
    void aTokenKeptAsItsCharactersCostsLessThanOneKeptWhole() {
        RunSegment segment = new RunSegment("run-1", 1L << 20, 1);
        long whole = segment.add(new GraphEvent.Token(TASK, "m1", "ab"), 0);
        long text = segment.add(new GraphEvent.Token(TASK, "m1", "cd"), 0);

        assertThat(text).isLessThan(whole).isEqualTo(12 + 2 * 2);
        assertThat(segment.bytes()).isEqualTo(whole + text);
    }

    @Test
    void aShedSegmentKeepsNothingAndFeedsNothing() {
        RunSegment segment = new RunSegment("run-1", 1L << 20, 1);
        segment.add(new GraphEvent.Token(TASK, "m1", "ab"), 0);
        segment.add(new GraphEvent.Token(TASK, "m1", "cd"), 0);

        assertThat(segment.drop()).isPositive();
        assertThat(segment.add(new GraphEvent.Token(TASK, "m1", "ef"), 1)).isZero();
        assertThat(fed(segment, 0)).isEmpty();
        assertThat(segment.size()).isZero();
    }
}
