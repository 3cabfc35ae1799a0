package io.conduit.blueprints.assistant;

import java.util.List;

/** A sub-agent the supervisor can hand work to: its name (also its namespace in streams), what it is for, its prompt and tools. */
record SubAgent(String name, String description, String prompt, List<String> tools) {

    /** The two the assistant ships with. */
    static final List<SubAgent> DEFAULTS = List.of(
            new SubAgent("researcher", "Looks things up: what is remembered about the user, the current time.",
                    "You are a research assistant working for a supervisor. Do the task you are given with your tools, "
                            + "then report what you found in a few sentences.",
                    List.of(SearchMemoryTool.NAME, "get_current_time")),
            new SubAgent("writer", "Writes and rewrites text: drafts, summaries, messages, in the user's voice.",
                    "You are a writer working for a supervisor. Write what the task asks for, and only that.",
                    List.of()));
}
