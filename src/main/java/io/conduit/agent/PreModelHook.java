package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * Shapes the messages a model receives, just before a call ({@link HookedModelCall}): drops what should not be sent,
 * adds the system prompt, trims to a budget. Hooks read the node's state and context (the run's user, its
 * {@code config.configurable}) but change neither: what the model sees is not what the thread records. Chain them
 * with {@link #then}; each sees what the previous one made.
 */
@FunctionalInterface
public interface PreModelHook {

    Uni<List<ChatMessage>> apply(List<ChatMessage> messages, State state, NodeContext ctx);

    /** This hook, then {@code next} on its result. */
    default PreModelHook then(PreModelHook next) {
        return (messages, state, ctx) -> apply(messages, state, ctx).flatMap(shaped -> next.apply(shaped, state, ctx));
    }

    /** Sends the messages as they are. */
    static PreModelHook none() {
        return (messages, state, ctx) -> Uni.createFrom().item(messages);
    }
}
