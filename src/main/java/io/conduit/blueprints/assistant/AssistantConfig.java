package io.conduit.blueprints.assistant;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** The assistant blueprint: {@code conduit.blueprints.assistant.*}. */
@ConfigMapping(prefix = "conduit.blueprints.assistant")
public interface AssistantConfig {

    @WithDefault("You are a helpful personal assistant. Remember what the user tells you about themselves with add_memory "
            + "and look it up with search_memory. Hand work that fits a sub-agent to it with handoff, then answer the user.")
    String systemPrompt();

    /** Longest user message accepted, in characters (a run over it is refused with 422 before it starts). */
    @WithDefault("8000")
    int maxMessageChars();

    /** A message longer than this is left out of what a model gets (a tool result is cut to it instead). */
    @WithDefault("16000")
    int maxModelMessageChars();

    /** The (estimated) tokens of conversation a model gets; older turns are left out past it. */
    @WithDefault("6000")
    int contextTokenBudget();

    /** Memories put into the system prompt (those sharing words with the user's message first). */
    @WithDefault("5")
    int memoriesInPrompt();

    /** Follow-up questions proposed after each answer (0: none). */
    @WithDefault("3")
    int suggestions();

    /** The model for the suggestions; unset: the summarizer's ({@code conduit.llm.summarizer.model}), a cheap one. */
    Optional<String> suggestionsModel();

    @WithDefault("25")
    int recursionLimit();

    /** Steps of one handoff's sub-agent run (model calls and tool rounds). */
    @WithDefault("12")
    int subAgentRecursionLimit();
}
