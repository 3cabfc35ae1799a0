package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.ToolScope;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Set;
import java.util.function.BiFunction;

/** A tool made of a function, for tests: any schema, blocking or not, its own timeout and injected arguments. */
record FnTool(String name, String parametersSchema, boolean blocking, Duration timeout, Set<String> injected,
              BiFunction<JsonNode, ToolScope, Uni<String>> fn) implements Tool {

    static final String ANY_OBJECT = "{\"type\":\"object\"}";

    FnTool(String name, BiFunction<JsonNode, ToolScope, Uni<String>> fn) {
        this(name, ANY_OBJECT, false, null, Set.of(), fn);
    }

    FnTool withSchema(String schema) {
        return new FnTool(name, schema, blocking, timeout, injected, fn);
    }

    FnTool blockingTool() {
        return new FnTool(name, parametersSchema, true, timeout, injected, fn);
    }

    FnTool withTimeout(Duration t) {
        return new FnTool(name, parametersSchema, blocking, t, injected, fn);
    }

    FnTool injecting(String... names) {
        return new FnTool(name, parametersSchema, blocking, timeout, Set.of(names), fn);
    }

    @Override
    public String description() {
        return "test tool " + name;
    }

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        return fn.apply(arguments, scope);
    }
}
