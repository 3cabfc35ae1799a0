package io.conduit.runs.graphs;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.graph.Command;
import io.conduit.graph.Durability;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InputText;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A run record's request (its {@link RunSpec}: the Agent Server's run fields) as the engine's {@link RunRequest}. The
 * same function checks a request when it arrives (so bad input is refused before anything is written) and builds it
 * when a worker starts the run.
 */
public final class RunRequests {

    private RunRequests() {
    }

    public static RunRequest from(Run run, RegisteredGraph g) {
        RunSpec spec = run.spec();
        StateSchema schema = g.graph().schema();
        RunRequest req = RunRequest.on(run.threadId()).runId(run.runId());
        JsonNode cmd = spec.command();
        // useStream's submit({}, {command}) (agent-chat-ui's resume) sends an empty input beside the command; LangGraph
        // runs the command, and so do we. A non-empty input with a command stays an error.
        JsonNode in = cmd != null && !cmd.isNull() && spec.input() != null && spec.input().isObject() && spec.input().isEmpty()
                ? null : spec.input();
        fieldsOfTheState(in, g);
        Update input = InputDecoder.decode(schema, in, "input");
        if (input != null && cmd != null && !cmd.isNull()) {
            throw new InvalidInputException("command", "a run takes an input or a command, not both");
        }
        if (input != null) {
            input = withUser(input, schema, spec);
            g.policy().check(input);
            req = req.input(input);
        } else if (cmd != null && !cmd.isNull()) {
            req = req.command(command(g, cmd));
        }
        String forkFrom = spec.fork().map(RunSpec.Fork::checkpointId).orElse(null);
        if (forkFrom != null) {
            req = req.fromCheckpoint(forkFrom);
        }
        Object limit = spec.config() == null ? null : spec.config().get("recursion_limit");
        if (limit != null) {
            if (!(limit instanceof Integer n) || n < 1) {
                throw new InvalidInputException("config.recursion_limit", "must be a whole number, at least 1");
            }
            req = req.recursionLimit(n);
        }
        req = req.interruptBefore(nodes(spec.interruptBefore(), g, "interrupt_before"))
                .interruptAfter(nodes(spec.interruptAfter(), g, "interrupt_after"));
        // "exit" keeps LangGraph's meaning of "as late as possible": the async write queue, flushed at the end
        req = req.durability(spec.durability() == RunSpec.Durability.SYNC ? Durability.SYNC : Durability.ASYNC);
        Map<String, String> meta = new HashMap<>();
        run.metadata().forEach((key, v) -> meta.put(key, String.valueOf(v)));
        meta.put("run_id", run.runId());
        meta.put("assistant_id", run.assistantId());
        return req.metadata(meta).configurable(spec.configurable());
    }

    /** The user of the run, for graphs that keep one in state: {@code config.configurable.user_id} or {@code context.user_id}. */
    @SuppressWarnings("unchecked")
    private static Update withUser(Update input, StateSchema schema, RunSpec spec) {
        var ch = schema.channel("user_id");
        Object user = spec.configurable().get("user_id");
        if (user == null && spec.context() != null) {
            JsonNode inContext = spec.context().path("user_id");
            user = inContext.isTextual() ? inContext.textValue() : null;
        }
        if (ch == null || !(user instanceof String id) || input.writes().stream().anyMatch(w -> w.channel() == ch)) {
            return input;
        }
        InputText.check("config.configurable.user_id", id, 256);
        return input.set((io.conduit.graph.Channel<?, String>) ch, id);
    }

    /**
     * Refuses an input field the graph's state does not have, naming it: the decoder would leave it out, and the run
     * would start on an input without it (the request blueprint given chat messages ran on an empty request).
     */
    private static void fieldsOfTheState(JsonNode input, RegisteredGraph g) {
        if (input == null || !input.isObject()) {
            return;
        }
        StateSchema schema = g.graph().schema();
        for (Iterator<String> it = input.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (schema.channel(name) == null) {
                java.util.Set<String> fields = g.policy().fields();
                throw RegisteredGraph.InputPolicy.notAnInput(name, fields != null ? fields
                        : schema.channels().stream().map(c -> c.name()).collect(java.util.stream.Collectors.toSet()));
            }
        }
    }

    private static Command command(RegisteredGraph g, JsonNode cmd) {
        StateSchema schema = g.graph().schema();
        if (!cmd.isObject()) {
            throw new InvalidInputException("command", "must be an object with resume, update or goto");
        }
        Command c;
        JsonNode resume = cmd.get("resume");
        if (resume != null && !resume.isNull()) {
            Object value = JsonCodec.MAPPER.convertValue(resume, Object.class);
            if (resume.isObject() && looksLikeInterruptIds(resume)) {
                Map<String, Object> byId = new HashMap<>();
                resume.fields().forEachRemaining(e -> byId.put(e.getKey(), JsonCodec.MAPPER.convertValue(e.getValue(), Object.class)));
                c = Command.resumeById(byId);
            } else {
                c = Command.resume(value);
            }
        } else {
            c = new Command(null, Map.of(), null, List.of());
        }
        JsonNode update = cmd.get("update");
        if (update != null && !update.isNull()) {
            Update values = InputDecoder.decode(schema, update, "command.update");
            g.policy().checkUpdate("command.update", values);
            c = c.withUpdate(values);
        }
        JsonNode go = cmd.get("goto");
        if (go != null && !go.isNull()) {
            List<String> targets = new ArrayList<>();
            for (JsonNode t : go.isArray() ? go : List.of(go)) {
                targets.add(t.isTextual() ? t.asText() : t.path("node").asText());
            }
            c = c.withGoTo(targets.toArray(String[]::new));
        }
        if (c.resume() == null && c.resumeById().isEmpty() && c.update() == null && c.goTo().isEmpty()) {
            throw new InvalidInputException("command", "must carry resume, update or goto");
        }
        return c;
    }

    /** {@code {"<interrupt id>": value, ...}}: LangGraph's resume map, told apart by keys that look like our ids. */
    private static boolean looksLikeInterruptIds(JsonNode resume) {
        if (resume.isEmpty()) {
            return false;
        }
        for (Iterator<String> it = resume.fieldNames(); it.hasNext(); ) {
            if (!it.next().contains("#")) {
                return false;
            }
        }
        return true;
    }

    private static String[] nodes(JsonNode n, RegisteredGraph g, String field) {
        if (n == null || n.isNull()) {
            return new String[0];
        }
        List<String> known = g.graph().nodeNames();
        if (n.isTextual() && "*".equals(n.asText())) {
            return known.toArray(String[]::new);
        }
        if (!n.isArray()) {
            throw new InvalidInputException(field, "must be \"*\" or a list of node names");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode x : n) {
            if (!known.contains(x.asText())) {
                throw new InvalidInputException(field, "the graph has no node " + x.asText());
            }
            out.add(x.asText());
        }
        return out.toArray(String[]::new);
    }
}
