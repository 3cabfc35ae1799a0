package io.conduit.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.auth.Principal;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Assistant;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.RegisteredGraph;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The assistants a caller may call, each as an MCP tool: the system assistant of every served graph that holds a
 * conversation (a {@code messages} channel), named by its graph id, then the caller's own stored assistants (owner
 * metadata the caller's id; for the anonymous principal of auth mode none, those without an owner), the oldest
 * {@value #MAX_STORED} first, named by their name. Another principal's assistant is never a tool, not even an
 * admin's: a name must keep naming the assistant the caller's client was told of, which a stranger's assistant could
 * otherwise take. A name is made MCP-valid (letters, digits, {@code _ - .}, at most 128); one already taken gets the
 * assistant's id after it, and as the oldest claims first, a new assistant never moves an existing name. A graph
 * without a conversation is not a tool: the tool's input is one question, which such a graph does not read.
 */
@ApplicationScoped
public class AssistantTools {

    static final int MAX_STORED = 1000;
    static final String INPUT = "input";
    private static final int MAX_NAME = 128;

    /** One tool: its name and the assistant it runs. */
    record Tool(String name, Assistant assistant, RegisteredGraph graph) {
    }

    private final Assistants assistants;

    AssistantTools(Assistants assistants) {
        this.assistants = assistants;
    }

    /** Every tool the caller may call, in a stable order (system assistants first, then its own stored ones, oldest first). */
    Uni<List<Tool>> of(Principal caller) {
        Map<String, Object> own = caller.anonymous() ? Map.of() : Map.of(Principal.OWNER, caller.id());
        return assistants.store().search(null, null, own, MAX_STORED, 0, "created_at", "asc").map(stored -> {
            List<Tool> tools = new ArrayList<>();
            Set<String> taken = new HashSet<>();
            for (Assistant a : assistants.system()) {
                add(tools, taken, a.graphId(), a);
            }
            List<Assistant> mine = new ArrayList<>(stored.stream().filter(a -> owns(caller, a)).toList());
            // ties on created_at in a fixed order too, so two listings name the same assistant alike
            mine.sort(Comparator.comparing(Assistant::createdAt).thenComparing(Assistant::assistantId));
            for (Assistant a : mine) {
                add(tools, taken, a.name() == null || a.name().isBlank() ? a.assistantId() : a.name(), a);
            }
            return tools;
        });
    }

    /** Whether the stored assistant is the caller's: its owner is the caller, or, for the anonymous principal, it has none. */
    static boolean owns(Principal caller, Assistant a) {
        Object owner = a.metadata().get(Principal.OWNER);
        return caller.anonymous() ? owner == null : caller.id().equals(owner);
    }

    /** The tool of that name, if the caller may call it. */
    Uni<Optional<Tool>> named(String name, Principal caller) {
        return of(caller).map(tools -> tools.stream().filter(t -> t.name().equals(name)).findFirst());
    }

    private void add(List<Tool> tools, Set<String> taken, String wanted, Assistant a) {
        RegisteredGraph graph = assistants.graphs().byGraphId(a.graphId());
        if (graph == null || graph.graph().schema().channel("messages") == null) {
            return;
        }
        String name = validName(wanted);
        if (!taken.add(name)) {
            name = validName(name.substring(0, Math.min(name.length(), MAX_NAME - a.assistantId().length() - 1)) + "_" + a.assistantId());
            if (!taken.add(name)) {
                return; // the same assistant twice: not reached, ids are unique
            }
        }
        tools.add(new Tool(name, a, graph));
    }

    /** {@code name} with every character MCP does not allow in a tool's name as {@code _}, at most 128 long. */
    static String validName(String name) {
        StringBuilder out = new StringBuilder(Math.min(name.length(), MAX_NAME));
        name.codePoints().limit(MAX_NAME).forEach(c -> out.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.') ? (char) c : '_'));
        return out.isEmpty() ? "_" : out.toString();
    }

    /** The sentence every tool's description ends with. */
    static final String ONE_QUESTION = "Ask it one question; it answers in a new conversation and forgets it afterwards.";

    /** The tool as {@code tools/list} lists it. */
    static ObjectNode json(Tool t) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode().put("name", t.name());
        if (t.assistant().name() != null && !t.assistant().name().equals(t.name())) {
            o.put("title", t.assistant().name());
        }
        String about = t.assistant().description() != null && !t.assistant().description().isBlank() ? t.assistant().description()
                : t.graph().description();
        String said = about == null || about.isBlank() ? "The assistant " + t.name() + "." : about.strip();
        // the model calling the tool reads this: a description without a full stop would run into the next sentence
        o.put("description", said + (".!?".indexOf(said.charAt(said.length() - 1)) >= 0 ? "" : ".") + " " + ONE_QUESTION);
        ObjectNode schema = o.putObject("inputSchema").put("type", "object");
        schema.putObject("properties").putObject(INPUT).put("type", "string").put("minLength", 1)
                .put("description", "The question or request for the assistant, as a user would write it.");
        schema.putArray("required").add(INPUT);
        schema.put("additionalProperties", false);
        o.putObject("annotations").put("readOnlyHint", false).put("openWorldHint", true);
        return o;
    }

    static ArrayNode list(List<Tool> tools) {
        ArrayNode out = JsonCodec.MAPPER.createArrayNode();
        tools.forEach(t -> out.add(json(t)));
        return out;
    }
}
