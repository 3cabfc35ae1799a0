package io.conduit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClarifyingQuestionTest {

    private static Map<String, Object> decision(Map<String, Object> d) {
        return Map.of("decisions", List.of(d));
    }

    @Test
    void textIsTheAnswer() {
        assertThat(ClarifyingQuestion.answer("  from Lyon ")).isEqualTo("from Lyon");
        assertThat(ClarifyingQuestion.answer(null)).isEmpty();
        assertThat(ClarifyingQuestion.answer(Map.of("answer", "by train"))).isEqualTo("by train");
    }

    @Test
    void anEditGivesItsAnswerArgumentAndARejectItsMessage() {
        assertThat(ClarifyingQuestion.answer(decision(Map.of("type", "edit",
                "edited_action", Map.of("name", "ask_user", "args", Map.of("answer", "tomorrow")))))).isEqualTo("tomorrow");
        assertThat(ClarifyingQuestion.answer(decision(Map.of("type", "reject", "message", "not that one")))).isEqualTo("not that one");
    }

    @Test
    void anApprovalOrAnUntouchedFormIsNoAnswer() {
        assertThat(ClarifyingQuestion.answer(decision(Map.of("type", "approve")))).isEmpty();
        assertThat(ClarifyingQuestion.answer(decision(Map.of("type", "edit",
                "edited_action", Map.of("name", "ask_user", "args", Map.of("answer", "")))))).isEmpty();
        assertThat(ClarifyingQuestion.answer(Map.of("decisions", List.of()))).isEmpty();
        // an edit that drops the answer field says nothing: not the question's text as the user's message
        assertThat(ClarifyingQuestion.answer(decision(Map.of("type", "edit",
                "edited_action", Map.of("name", "ask_user", "args", Map.of("question", "Which city?")))))).isEmpty();
    }

    @Test
    void anyOtherValueIsReadAsItsJson() {
        assertThat(ClarifyingQuestion.answer(Map.of("city", "Lyon"))).isEqualTo("{\"city\":\"Lyon\"}");
        assertThat(ClarifyingQuestion.answer(42)).isEqualTo("42");
    }

    @Test
    void thePayloadIsAReviewRequestAgentChatUiCanAnswer() {
        Map<String, Object> p = ClarifyingQuestion.payload("Which city?", List.of("search returned nothing"));
        assertThat(p).containsEntry("question", "Which city?").containsEntry("problems", List.of("search returned nothing"));
        assertThat(p.get("action_requests")).isEqualTo(List.of(Map.of("name", "ask_user",
                "args", Map.of("question", "Which city?", "answer", ""), "description", "Which city?")));
    }
}
