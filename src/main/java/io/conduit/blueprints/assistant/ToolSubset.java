package io.conduit.blueprints.assistant;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.ToolSpec;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Some of the blueprint's tools, for the supervisor or one sub-agent: only those are bound, and a call to another is
 * an error outcome, never run. {@code routed} are specs the graph acts on itself (handoff): a call that reaches the
 * tool node anyway is answered by {@code refuse}.
 */
final class ToolSubset implements ToolBox {

    private final ToolBox all;
    private final List<String> names;
    private final List<ToolSpec> specs;
    private final List<String> routed;
    private final Function<ToolCall, ToolOutcome> refuse;

    ToolSubset(ToolBox all, List<String> names, List<ToolSpec> routed, Function<ToolCall, ToolOutcome> refuse) {
        this.all = all;
        this.names = List.copyOf(names);
        List<ToolSpec> s = new ArrayList<>(all.specs().stream().filter(t -> names.contains(t.name())).toList());
        s.addAll(routed);
        this.specs = List.copyOf(s);
        this.routed = routed.stream().map(ToolSpec::name).toList();
        this.refuse = refuse;
    }

    @Override
    public List<ToolSpec> specs() {
        return specs;
    }

    @Override
    public Uni<ToolOutcome> call(ToolCall call, ToolScope scope) {
        if (routed.contains(call.name())) {
            return Uni.createFrom().item(refuse.apply(call));
        }
        if (!names.contains(call.name())) {
            return Uni.createFrom().item(new ToolOutcome("tool " + call.name() + " is not available here", true, 0));
        }
        return all.call(call, scope);
    }
}
