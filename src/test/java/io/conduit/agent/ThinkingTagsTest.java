package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The thinking/answer split, fed as a model streams: tags whole, cut across tokens, missing, or never closed. */
class ThinkingTagsTest {

    private final List<String> reasoning = new ArrayList<>();
    private final List<String> answer = new ArrayList<>();
    private final ThinkingTags.Sink sink = new ThinkingTags.Sink() {
        @Override
        public void reasoning(String text) {
            reasoning.add(text);
        }

        @Override
        public void answer(String text) {
            answer.add(text);
        }
    };

    private ThinkingTags feed(String... tokens) {
        ThinkingTags t = new ThinkingTags();
        for (String token : tokens) {
            t.feed(token, sink);
        }
        t.finish(sink);
        return t;
    }

    @Test
    void thinkingGoesToReasoningAndTheAnswerToTheText() {
        ThinkingTags t = feed("<thinking>First ", "the light.</thinking>\n<answer>Because ", "of light.</answer>");
        assertThat(t.thinking()).isEqualTo("First the light.");
        assertThat(t.answer()).isEqualTo("Because of light.");
        assertThat(String.join("", reasoning)).isEqualTo("First the light.");
        assertThat(String.join("", answer)).isEqualTo("Because of light.");
    }

    @Test
    void aTagCutAcrossTokensIsHeldBackUntilItIsWhole() {
        ThinkingTags t = feed("<thi", "nking>a", " b</th", "inking><ans", "wer>c<", "/answer>");
        assertThat(t.thinking()).isEqualTo("a b");
        assertThat(t.answer()).isEqualTo("c");
        assertThat(String.join("", answer)).doesNotContain("<").isEqualTo("c");
        assertThat(String.join("", reasoning)).isEqualTo("a b");
    }

    @Test
    void eachPieceStreamsAsSoonAsItIsKnown() {
        ThinkingTags t = new ThinkingTags();
        t.feed("<thinking>one ", sink);
        assertThat(reasoning).containsExactly("one ");
        t.feed("two", sink);
        assertThat(reasoning).containsExactly("one ", "two");
        t.feed("</thinking><answer>x <", sink);
        assertThat(answer).containsExactly("x "); // "<" may open a tag: held back
        t.feed(" y always", sink); // it did not
        assertThat(String.join("", answer)).isEqualTo("x < y always");
    }

    @Test
    void textWithoutTagsIsTheAnswerAndAnUnfinishedTagIsText() {
        ThinkingTags plain = feed("Just ", "an answer <b");
        assertThat(plain.thinking()).isEmpty();
        assertThat(plain.answer()).isEqualTo("Just an answer <b");
        reasoning.clear();
        answer.clear();
        ThinkingTags think = feed("<THINK>hm</think>", "yes");
        assertThat(think.thinking()).isEqualTo("hm");
        assertThat(think.answer()).isEqualTo("yes");
    }

    @Test
    void thinkingThatIsNeverClosedStaysReasoning() {
        ThinkingTags t = feed("<thinking>I ran out of ", "tokens");
        assertThat(t.thinking()).isEqualTo("I ran out of tokens");
        assertThat(t.answer()).isEmpty();
        assertThat(answer).isEmpty();
    }
}
