package io.conduit.blueprints.tutor;

import io.conduit.agent.port.LanguageModel;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Route;
import io.conduit.graph.StateGraph;

/**
 * The test session, run as the tutor's {@code test_session} node (its own checkpoint namespace, so it pauses and
 * resumes with the thread):
 * <pre>
 * start_quiz -> generate_queries -> retrieve -> generate_questions -> present_question <-> judge_answer -> summarize
 * </pre>
 */
final class QuizGraph {

    static final String PRESENT = "present_question";
    static final String SUMMARY = "summarize";

    private QuizGraph() {
    }

    static StateGraph define(LanguageModel model, TutorTools tools, TutorConfig config) {
        return StateGraph.of(TutorState.QUIZ_SCHEMA)
                .node("start_quiz", new StartQuizNode())
                .node("generate_queries", new QueriesNode(model, config))
                .node("retrieve", new RetrieveNode(tools, config))
                .node("generate_questions", new QuestionsNode(model, config))
                .node(PRESENT, new PresentQuestionNode())
                .node("judge_answer", new JudgeAnswerNode(model, config))
                .node(SUMMARY, new QuizSummaryNode())
                .edge(StateGraph.START, "start_quiz")
                .edge("start_quiz", "generate_queries")
                .edge("generate_queries", "retrieve")
                .edge("retrieve", "generate_questions")
                .route("generate_questions", s -> Route.to(QuestionsNode.route(s)), PRESENT, SUMMARY)
                .edge(PRESENT, "judge_answer")
                .route("judge_answer", s -> Route.to(JudgeAnswerNode.route(s)), PRESENT, SUMMARY)
                .edge(SUMMARY, StateGraph.END);
    }

    /** Compiled without a store of its own: it borrows the tutor's when it runs. */
    static CompiledGraph compile(LanguageModel model, TutorTools tools, TutorConfig config) {
        return define(model, tools, config).compile();
    }
}
