package io.conduit.blueprints.tutor;

/** The model's generate_test call: the call's id (answered when the quiz starts), the topic and how many questions. */
public record QuizRequest(String callId, String topic, int questions) {
}
