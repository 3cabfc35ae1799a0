package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.ToolMessage;
import io.conduit.checkpoint.TimeOrderedIds;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;

/** Opens a quiz session from the generate_test call, and answers the call (the conversation stays well-formed). */
final class StartQuizNode implements Node {

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizRequest req = state.get(TutorState.QUIZ_REQUEST);
        String topic = req.topic().isBlank() ? state.get(TutorState.SUBJECT) : req.topic();
        ToolMessage started = new ToolMessage(TimeOrderedIds.next(), req.callId(), TutorTools.GENERATE_TEST,
                "A quiz of " + req.questions() + " questions on " + topic + " has started.", false);
        return Uni.createFrom().item(Update.of(TutorState.QUIZ, QuizSession.start(topic, req.questions())).set(AgentState.MESSAGES, started));
    }
}
