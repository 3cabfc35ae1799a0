package io.conduit.agent;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.agent.port.ToolSpec;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** A {@link ToolBox} of named functions, counting calls; the real executor is tested in io.conduit.tools. */
final class ScriptedTools implements ToolBox {

    private final Map<String, Function<ToolCall, ToolOutcome>> tools = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final List<ToolScope> scopes = new CopyOnWriteArrayList<>();

    ScriptedTools tool(String name, Function<ToolCall, ToolOutcome> fn) {
        tools.put(name, fn);
        return this;
    }

    ScriptedTools returns(String name, String... results) {
        AtomicInteger i = new AtomicInteger();
        return tool(name, c -> new ToolOutcome(results[Math.min(i.getAndIncrement(), results.length - 1)], false, 1));
    }

    int callsOf(String name) {
        AtomicInteger n = calls.get(name);
        return n == null ? 0 : n.get();
    }

    @Override
    public List<ToolSpec> specs() {
        return tools.keySet().stream().sorted().map(n -> new ToolSpec(n, "test tool " + n, "{\"type\":\"object\"}")).toList();
    }

    @Override
    public Uni<ToolOutcome> call(ToolCall call, ToolScope scope) {
        calls.computeIfAbsent(call.name(), k -> new AtomicInteger()).incrementAndGet();
        scopes.add(scope);
        Function<ToolCall, ToolOutcome> fn = tools.get(call.name());
        return Uni.createFrom().item(fn == null ? new ToolOutcome("unknown tool " + call.name(), true, 0) : fn.apply(call));
    }
}
