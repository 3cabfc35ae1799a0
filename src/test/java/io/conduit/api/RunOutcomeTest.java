package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.events.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What runs/wait and join answer, read from a run's events: the root graph's last values, its interrupts, its error. */
class RunOutcomeTest {

    private final List<RunOutcome> ended = new ArrayList<>();
    private final RunOutcome outcome = new RunOutcome(ended::add);

    private void event(String mode, String ns, String data) {
        outcome.onEvent(new RunEvent(1, "r", mode, ns, data));
    }

    @Test
    void theLastRootValuesAreTheAnswerAndASubgraphsAreNot() {
        event("values", "", "{\"messages\":[\"a\"]}");
        event("values", "", "{\"messages\":[\"a\",\"b\"],\"step\":2}");
        event("values", "child:1", "{\"messages\":[\"inner\"]}");
        event("updates", "", "{\"node\":{}}");
        outcome.onEnd();

        assertThat(ended).containsExactly(outcome);
        assertThat(outcome.values().toString()).isEqualTo("{\"messages\":[\"a\",\"b\"],\"step\":2}");
        assertThat(outcome.answer().toString()).isEqualTo("{\"messages\":[\"a\",\"b\"],\"step\":2}");
        // the answer is a copy: the caller may add to it
        outcome.answer().put("x", 1);
        assertThat(outcome.values().has("x")).isFalse();
    }

    @Test
    void anInterruptIsAddedToTheLastValuesAndAnErrorReplacesThem() {
        event("values", "", "{\"quiz\":{\"status\":\"in_progress\"}}");
        event("values", "", "{\"__interrupt__\":[{\"id\":\"i1\",\"value\":{\"question_num\":1}}]}");
        assertThat(outcome.answer().toString())
                .isEqualTo("{\"quiz\":{\"status\":\"in_progress\"},\"__interrupt__\":[{\"id\":\"i1\",\"value\":{\"question_num\":1}}]}");

        event("error", "", "{\"error\":\"NodeError\",\"message\":\"boom\"}");
        assertThat(outcome.answer().toString()).isEqualTo("{\"__error__\":{\"error\":\"NodeError\",\"message\":\"boom\"}}");
    }

    @Test
    void aRunWithNoValuesAnswersAnEmptyObject() {
        assertThat(outcome.values().toString()).isEqualTo("{}");
        assertThat(outcome.answer().toString()).isEqualTo("{}");
    }
}
