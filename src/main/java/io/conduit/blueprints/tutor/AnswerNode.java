package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.StreamedModelCall;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolSpec;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.State;
import io.conduit.graph.StateGraph;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * The tutor's answer: one streamed model call with the level's system prompt and the tools bound (none once the
 * turn's tool rounds are used up). An advanced answer is written in thinking tags: its thinking streams as reasoning
 * and is kept in {@code thinking}, its answer is the reply. A call of generate_test becomes the quiz's request.
 */
final class AnswerNode implements Node {

    static final String STAGE = "tutor";

    private final LanguageModel model;
    private final TutorTools tools;
    private final TutorConfig config;

    AnswerNode(LanguageModel model, TutorTools tools, TutorConfig config) {
        this.model = model;
        this.tools = tools;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        Difficulty level = Difficulty.of(state.get(TutorState.DIFFICULTY)).orElse(Difficulty.INTERMEDIATE);
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(SystemMessage.of(TutorPrompts.system(level, state.get(TutorState.SUBJECT))));
        messages.addAll(state.get(AgentState.MESSAGES).asList());
        List<ToolSpec> bound = state.get(TutorState.TOOL_ROUNDS) < config.maxToolRounds() ? tools.specs() : List.of();
        StreamedModelCall.Shown shown = level == Difficulty.ADVANCED ? StreamedModelCall.Shown.ALL_SPLIT_THINKING : StreamedModelCall.Shown.ALL;
        ModelRequest request = new ModelRequest(ModelRole.PLANNER, messages, bound);
        return StreamedModelCall.run(model, request, ctx, TimeOrderedIds.next(), STAGE, shown).map(reply -> {
            AssistantMessage m = reply.message();
            Update u = ModelCalls.record(Update.none(), ctx, STAGE, List.of(reply.response()));
            ToolCall quiz = m.toolCalls().stream().filter(c -> TutorTools.GENERATE_TEST.equals(c.name())).findFirst().orElse(null);
            if (quiz != null) {
                // other calls made beside it would stay unanswered; the call is answered here, not by the quiz, so the
                // conversation stays well-formed even when the student leaves the quiz for another question
                AssistantMessage only = new AssistantMessage(m.id(), m.content(), List.of(quiz), m.reasoning(), m.stage());
                QuizRequest req = request(quiz, state.get(TutorState.SUBJECT));
                ToolMessage started = new ToolMessage(TimeOrderedIds.next(), quiz.id(), TutorTools.GENERATE_TEST,
                        "A quiz of " + req.questions() + " questions on " + req.topic() + " has started.", false);
                return u.set(AgentState.MESSAGES, only).set(AgentState.MESSAGES, started).set(TutorState.QUIZ_REQUEST, req);
            }
            if (m.hasToolCalls()) {
                return u.set(AgentState.MESSAGES, m).set(TutorState.TOOL_ROUNDS, state.get(TutorState.TOOL_ROUNDS) + 1);
            }
            u = u.set(AgentState.MESSAGES, m);
            return level == Difficulty.ADVANCED ? u.set(TutorState.THINKING, m.reasoning() == null ? "" : m.reasoning()) : u;
        });
    }

    private QuizRequest request(ToolCall call, String subject) {
        String topic = "";
        int n = config.questions();
        try {
            var args = JsonCodec.MAPPER.readTree(call.arguments());
            topic = args.path("topic").asText("");
            if (args.path("num_questions").canConvertToInt() && args.get("num_questions").asInt() >= 1) {
                n = Math.min(10, args.get("num_questions").asInt());
            }
        } catch (Exception notJson) {
            // a quiz on the subject as a whole
        }
        return new QuizRequest(call.id(), topic.isBlank() ? subject : topic.strip(), n);
    }

    /** generate_test: the quiz; other tool calls: the tools; none: the answer is given. */
    static Route route(State state) {
        AssistantMessage last = AgentState.lastAssistant(state);
        if (last == null || !last.hasToolCalls()) {
            return Route.to(StateGraph.END);
        }
        boolean quiz = last.toolCalls().stream().anyMatch(c -> TutorTools.GENERATE_TEST.equals(c.name()));
        return Route.to(quiz ? TutorGraph.TEST_SESSION : TutorGraph.TOOLS);
    }
}
