package io.conduit.blueprints.tutor;

import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;

/** Opens a quiz session from the generate_test call (which the tutor's answer already answered). */
final class StartQuizNode implements Node {

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizRequest req = state.get(TutorState.QUIZ_REQUEST);
        return Uni.createFrom().item(Update.of(TutorState.QUIZ, QuizSession.start(req.topic(), req.questions())));
    }
}
