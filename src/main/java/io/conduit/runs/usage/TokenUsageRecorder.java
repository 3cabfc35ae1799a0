package io.conduit.runs.usage;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.graph.GraphEvent;
import io.conduit.runs.PrincipalLimitsConfig;
import io.conduit.runs.Run;
import io.conduit.runs.worker.RunObserver;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Counts each model call's tokens (input plus output) against the principal whose run made it, when a daily budget is
 * set ({@code conduit.limits.per-principal.tokens-per-day}); off, it watches nothing. Every model call of a graph
 * ends with a {@code ChildEnded} event carrying the message it made and its usage, subgraphs' included.
 */
@ApplicationScoped
public class TokenUsageRecorder implements RunObserver {

    private final DailyTokens tokens;
    private final boolean on;

    TokenUsageRecorder(DailyTokens tokens, PrincipalLimitsConfig config) {
        this.tokens = tokens;
        this.on = config.tokensPerDay() > 0;
    }

    @Override
    public Watch began(Run run, String graphId) {
        if (!on) {
            return Watch.NONE;
        }
        String principal = DailyTokens.principalOf(run);
        return new Watch() {
            @Override
            public void event(GraphEvent e) {
                if (e instanceof GraphEvent.ChildEnded c && c.output() instanceof AssistantMessage m && m.usage() != null) {
                    tokens.record(principal, m.usage().totalTokens());
                }
            }
        };
    }
}
