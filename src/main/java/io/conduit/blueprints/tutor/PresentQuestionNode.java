package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Asks the next question: the run pauses with {@code {action: "answer_question", question_num, total_questions,
 * question_text, choices}}, and a client resumes it with the student's answer ({@code command.resume}: the answer as
 * text, or {@code {"answer": ...}}). The answer is checkpointed before it is judged, so a restart does not lose it.
 */
final class PresentQuestionNode implements Node {

    static final String ACTION = "answer_question";

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizSession quiz = state.get(TutorState.QUIZ);
        int i = quiz.next();
        QuizQuestion q = quiz.questions().get(i);
        Map<String, Object> ask = new LinkedHashMap<>();
        ask.put("action", ACTION);
        ask.put("question_num", i + 1);
        ask.put("total_questions", quiz.questions().size());
        ask.put("question_text", q.question());
        ask.put("choices", q.choices());
        String answer = answerText(ctx.interrupt(ask, Object.class));
        StringBuilder shown = new StringBuilder("Question " + (i + 1) + " of " + quiz.questions().size() + ": " + q.question());
        for (int c = 0; c < q.choices().size(); c++) {
            shown.append('\n').append(QuizQuestion.letter(c)).append(") ").append(q.choices().get(c));
        }
        return Uni.createFrom().item(Update.of(TutorState.QUIZ, quiz.answered(answer))
                .set(AgentState.MESSAGES, AssistantMessage.of(shown.toString()))
                .set(AgentState.MESSAGES, UserMessage.of(answer)));
    }

    static String answerText(Object resume) {
        if (resume instanceof Map<?, ?> m) {
            Object a = m.get("answer");
            return a == null ? "" : String.valueOf(a).strip();
        }
        return resume == null ? "" : String.valueOf(resume).strip();
    }
}
