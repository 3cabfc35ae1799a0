package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Update;
import io.conduit.runs.InvalidInputException;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rules before the model: a question's difficulty, the choice an answer names, the checks on written questions. */
class TutorRulesTest {

    @Test
    void theRulesRateWhatTheyCanAndLeaveTheRestToTheModel() {
        assertThat(Difficulty.byRules("What is photosynthesis?")).contains(Difficulty.BASIC);
        assertThat(Difficulty.byRules("Define osmosis")).contains(Difficulty.BASIC);
        assertThat(Difficulty.byRules("How does a cell divide?")).contains(Difficulty.INTERMEDIATE);
        assertThat(Difficulty.byRules("Why does light matter for photosynthesis?")).contains(Difficulty.ADVANCED);
        assertThat(Difficulty.byRules("Compare mitosis and meiosis")).contains(Difficulty.ADVANCED);
        // a long "what is" question is not a definition
        assertThat(Difficulty.byRules("What is the reason that plants in deep shade still grow even though they get very little light each day"))
                .isEmpty();
        assertThat(Difficulty.byRules("Quiz me on photosynthesis")).isEmpty();
        assertThat(Difficulty.byRules("  ")).isEmpty();
        assertThat(Difficulty.of("Advanced")).contains(Difficulty.ADVANCED);
        assertThat(Difficulty.of("expert")).isEqualTo(Optional.empty());
    }

    @Test
    void aClientSetsTheMessagesAndTheSubjectButNotTheTutorsOwnState() {
        TutorGraphProducer.check(Update.of(AgentState.MESSAGES, UserMessage.of("hi")).set(TutorState.SUBJECT, "biology"));
        assertThatThrownBy(() -> TutorGraphProducer.check(Update.of(TutorState.QUIZ, QuizSession.start("x", 3))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("input.quiz");
        assertThatThrownBy(() -> TutorGraphProducer.check(Update.of(TutorState.SUBJECT, "x".repeat(300))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("input.subject");
    }

    @Test
    void anAnswerNamesAChoiceByLetterNumberOrText() {
        List<String> choices = List.of("Chlorophyll", "Keratin", "Hemoglobin", "Melanin");
        assertThat(Choices.resolve("B", choices)).isEqualTo(1);
        assertThat(Choices.resolve("b)", choices)).isEqualTo(1);
        assertThat(Choices.resolve("(C)", choices)).isEqualTo(2);
        assertThat(Choices.resolve("D) Melanin", choices)).isEqualTo(3);
        assertThat(Choices.resolve("4", choices)).isEqualTo(3);
        assertThat(Choices.resolve(" keratin ", choices)).isEqualTo(1);
        assertThat(Choices.resolve("I think it is the green one", choices)).isEqualTo(-1);
        assertThat(Choices.resolve("E", choices)).isEqualTo(-1);
        assertThat(Choices.resolve("9", choices)).isEqualTo(-1);
        assertThat(Choices.resolve(null, choices)).isEqualTo(-1);
    }

    @Test
    void writtenQuestionsAreCheckedForCountChoicesAndAnAnswerThatNamesOne() {
        QuestionsNode.Written good = new QuestionsNode.Written("Q?", List.of("a", "b", "c"), "B", "why");
        assertThat(QuestionsNode.problems(new QuestionsNode.Questions(List.of(good, good)), 2)).isEmpty();
        assertThat(QuestionsNode.problems(new QuestionsNode.Questions(List.of(good)), 2)).containsExactly("\"questions\" must hold exactly 2 questions");
        assertThat(QuestionsNode.problems(new QuestionsNode.Questions(List.of(
                new QuestionsNode.Written("Q?", List.of("a"), "A", ""),
                new QuestionsNode.Written("Q?", List.of("a", "A"), "A", ""),
                new QuestionsNode.Written("Q?", List.of("a", "b"), "Z", ""),
                new QuestionsNode.Written(" ", List.of("a", "b"), "A", ""))), 4)).containsExactly(
                "questions[0] must have 2 to 6 choices",
                "questions[1] has an empty or repeated choice",
                "questions[2].answer must name one of its choices (a letter such as \"A\")",
                "questions[3] has no question");
        assertThat(QueriesNode.problems(new QueriesNode.Queries(List.of("a", "b")))).isNotEmpty();
        assertThat(QueriesNode.problems(new QueriesNode.Queries(List.of("a", "b", "c")))).isEmpty();
    }
}
