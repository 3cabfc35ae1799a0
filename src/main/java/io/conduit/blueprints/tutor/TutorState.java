package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.graph.Channels;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.MessagesChannel;
import io.conduit.graph.StateSchema;

/**
 * The tutor's state, and its quiz subgraph's. They share {@code messages}, {@code user_id}, {@code subject},
 * {@code context}, {@code quiz_request} and {@code quiz} by name: the quiz starts from the tutor's values and hands
 * back its messages and its session when it ends.
 */
public final class TutorState {

    /** The course's subject: from the input or {@code config.configurable.subject}; tools get it from here, never from the model. */
    public static final LastValueChannel<String> SUBJECT = Channels.lastValue("subject", String.class, "");
    /** The last question's difficulty ({@code basic}, {@code intermediate}, {@code advanced}). */
    public static final LastValueChannel<String> DIFFICULTY = Channels.lastValue("difficulty", String.class, "");
    /** Who rated it: {@code rules} or {@code model}. */
    public static final LastValueChannel<String> RATED_BY = Channels.lastValue("rated_by", String.class, "");
    /** The system prompt picked for the level ({@code basic}, {@code intermediate}, {@code advanced_reasoning}). */
    public static final LastValueChannel<String> PROMPT = Channels.lastValue("prompt", String.class, "");
    /** The thinking behind the last advanced answer (the text between the thinking tags). */
    public static final LastValueChannel<String> THINKING = Channels.lastValue("thinking", String.class, "");
    /** Tool rounds in the current answer. */
    public static final LastValueChannel<Integer> TOOL_ROUNDS = Channels.lastValue("tool_rounds", Integer.class, 0);
    /** Everything rag_search found in this thread, with its metadata. */
    public static final MessagesChannel<Passage> CONTEXT = Channels.messages("context", Passage.class);
    public static final LastValueChannel<QuizRequest> QUIZ_REQUEST = Channels.lastValue("quiz_request", QuizRequest.class, null);
    public static final LastValueChannel<QuizSession> QUIZ = Channels.lastValue("quiz", QuizSession.class, QuizSession.NONE);

    public static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES, AgentState.USER_ID, SUBJECT, DIFFICULTY, RATED_BY,
            PROMPT, THINKING, TOOL_ROUNDS, CONTEXT, QUIZ_REQUEST, QUIZ, AgentState.LLM_CALLS);

    public static final StateSchema QUIZ_SCHEMA = StateSchema.of(AgentState.MESSAGES, AgentState.USER_ID, SUBJECT, CONTEXT,
            QUIZ_REQUEST, QUIZ, AgentState.LLM_CALLS);

    private TutorState() {
    }
}
