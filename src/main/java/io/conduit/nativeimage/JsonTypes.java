package io.conduit.nativeimage;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * For a native image: the classes of ours that Jackson reads by reflection through our own mapper
 * (io.conduit.kernel.JsonCodec.MAPPER: graph state, checkpoints, stored records, interrupts, tool arguments).
 * Quarkus registers what its REST layer returns and reads by itself; nothing registers what we map ourselves. By name,
 * because some are private to their package; NativeRegistrationTest fails when a class our mapper maps is missing.
 */
@RegisterForReflection(classNames = {
        "io.conduit.agent.LlmCall",
        "io.conduit.agent.Phase",
        "io.conduit.agent.Scratchpad",
        "io.conduit.agent.StreamedModelCall$WrittenMessages",
        "io.conduit.agent.Suggestions",
        "io.conduit.agent.Usage",
        "io.conduit.agent.UserContext",
        "io.conduit.agent.message.AssistantMessage",
        "io.conduit.agent.message.ChatMessage",
        "io.conduit.agent.message.RemoveMessage",
        "io.conduit.agent.message.SystemMessage",
        "io.conduit.agent.message.TokenUsage",
        "io.conduit.agent.message.ToolCall",
        "io.conduit.agent.message.ToolMessage",
        "io.conduit.agent.message.UserMessage",
        "io.conduit.blueprints.analyst.DataFile",
        "io.conduit.blueprints.analyst.DataFiles",
        "io.conduit.blueprints.analyst.Turn",
        "io.conduit.blueprints.request.Processing",
        "io.conduit.blueprints.request.RequestInput",
        "io.conduit.blueprints.request.RequestOutput",
        "io.conduit.blueprints.request.TurnMetrics",
        "io.conduit.blueprints.request.TurnMetrics$Call",
        "io.conduit.blueprints.tutor.JudgeAnswerNode$Verdict",
        "io.conduit.blueprints.tutor.Passage",
        "io.conduit.blueprints.tutor.QueriesNode$Queries",
        "io.conduit.blueprints.tutor.QuestionsNode$Questions",
        "io.conduit.blueprints.tutor.QuestionsNode$Written",
        "io.conduit.blueprints.tutor.QuizQuestion",
        "io.conduit.blueprints.tutor.QuizRequest",
        "io.conduit.blueprints.tutor.QuizResult",
        "io.conduit.blueprints.tutor.QuizSession",
        "io.conduit.blueprints.tutor.ThinkNode$Rating",
        "io.conduit.files.CsvSummary",
        "io.conduit.files.CsvSummary$Column",
        "io.conduit.files.StoredFile",
        "io.conduit.graph.InterruptCodec$Shape",
        "io.conduit.runs.StreamMode"
})
final class JsonTypes {

    private JsonTypes() {
    }
}
