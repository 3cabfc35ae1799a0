package io.conduit.llm.simulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Decides, deterministically, what the simulated model says (docs/simulator.md has the format):
 * <pre>
 * {"rules": [{"when": "regex on the last user message",
 *             "offers": ["a tool the request must offer", ...],
 *             "rounds": [[{"tool": "name", "args": {"key": "$1"}}, ...], ...],
 *             "then": "the final answer, $1 for the regex's first group"}],
 *  "default": "the answer when no rule matches; $0 is the user's message"}
 * </pre>
 * Rules are tried in order; a rule with {@code offers} only for a request that offers each tool it names, so that one
 * script can hold the conversations of several graphs, each with its own tools. Round k (from 0) is played when k rounds were played since the last user message
 * (assistant messages with tool calls) and the request offers tools; otherwise the answer is {@code then}. Tool
 * results are not read: an empty one does not change the round, and {@code then} follows the last round regardless.
 */
final class SimulatorScript {

    static final String CLASSPATH_SCRIPT = "simulator/script.json";
    private static final String DEFAULT_ANSWER = "This is the Conduit simulator, not a real model. You said: $0";

    private record Rule(Pattern when, List<String> offers, List<List<Template>> rounds, String then) {

        boolean appliesTo(CompletionRequest request) {
            return request.tools().containsAll(offers);
        }
    }

    /** A scripted tool call; its arguments are an object whose string values may hold {@code $n}. */
    private record Template(String tool, ObjectNode args) {
    }

    private final List<Rule> rules;
    private final String fallback;

    private SimulatorScript(List<Rule> rules, String fallback) {
        this.rules = rules;
        this.fallback = fallback;
    }

    /** The script at {@code path}, or the one shipped on the classpath when there is none. */
    static SimulatorScript load(String path) {
        String where = path != null ? path : "classpath:" + CLASSPATH_SCRIPT;
        try (InputStream in = path != null ? Files.newInputStream(Path.of(path))
                : SimulatorScript.class.getClassLoader().getResourceAsStream(CLASSPATH_SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("The simulator script " + where + " is missing.");
            }
            return parse(SimulatorJson.MAPPER.readTree(in), where);
        } catch (JacksonException e) {
            throw new IllegalStateException("The simulator script " + where + " is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalStateException("The simulator script " + where + " cannot be read (conduit.simulator.script): " + e, e);
        }
    }

    /** Checks the whole script up front, so that a mistake stops start-up with its location instead of a request failing later. */
    static SimulatorScript parse(JsonNode script, String where) {
        if (script == null || !script.isObject()) {
            throw invalid(where, "the script must be a JSON object with \"rules\" and \"default\"");
        }
        List<Rule> rules = new ArrayList<>();
        JsonNode ruleNodes = script.path("rules");
        if (!ruleNodes.isMissingNode() && !ruleNodes.isArray()) {
            throw invalid(where, "\"rules\" must be an array");
        }
        for (int r = 0; r < ruleNodes.size(); r++) {
            rules.add(rule(ruleNodes.get(r), where + ": rules[" + r + "]"));
        }
        JsonNode fallback = script.path("default");
        if (!fallback.isMissingNode() && !fallback.isTextual()) {
            throw invalid(where, "\"default\" must be a string");
        }
        return new SimulatorScript(List.copyOf(rules), fallback.asText(DEFAULT_ANSWER));
    }

    private static Rule rule(JsonNode r, String where) {
        if (!r.path("when").isTextual()) {
            throw invalid(where, "\"when\" (a regular expression) is required");
        }
        Pattern when;
        try {
            when = Pattern.compile(r.get("when").asText(), Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
            throw invalid(where, "\"when\" is not a valid regular expression: " + e.getDescription());
        }
        List<String> offers = new ArrayList<>();
        JsonNode offerNodes = r.path("offers");
        if (offerNodes.isTextual()) {
            offers.add(offerNodes.asText());
        } else if (offerNodes.isArray()) {
            for (JsonNode name : offerNodes) {
                if (!name.isTextual()) {
                    throw invalid(where, "\"offers\" must be a tool name or a list of tool names");
                }
                offers.add(name.asText());
            }
        } else if (!offerNodes.isMissingNode()) {
            throw invalid(where, "\"offers\" must be a tool name or a list of tool names");
        }
        List<List<Template>> rounds = new ArrayList<>();
        JsonNode roundNodes = r.path("rounds");
        if (!roundNodes.isMissingNode() && !roundNodes.isArray()) {
            throw invalid(where, "\"rounds\" must be an array of rounds, each an array of {\"tool\", \"args\"}");
        }
        for (int k = 0; k < roundNodes.size(); k++) {
            JsonNode round = roundNodes.get(k);
            if (!round.isArray() || round.isEmpty()) {
                throw invalid(where, "rounds[" + k + "] must be a non-empty array of {\"tool\", \"args\"}");
            }
            List<Template> calls = new ArrayList<>();
            for (JsonNode c : round) {
                JsonNode args = c.path("args");
                if (!c.path("tool").isTextual() || !(args.isMissingNode() || args.isObject())) {
                    throw invalid(where, "rounds[" + k + "]: each call needs \"tool\" (a name) and optional \"args\" (an object)");
                }
                calls.add(new Template(c.get("tool").asText(),
                        args.isObject() ? (ObjectNode) args : SimulatorJson.MAPPER.createObjectNode()));
            }
            rounds.add(List.copyOf(calls));
        }
        JsonNode then = r.path("then");
        if (!then.isMissingNode() && !then.isTextual()) {
            throw invalid(where, "\"then\" must be a string");
        }
        return new Rule(when, List.copyOf(offers), List.copyOf(rounds), then.asText(""));
    }

    private static IllegalStateException invalid(String where, String problem) {
        return new IllegalStateException("The simulator script " + where + " is invalid: " + problem);
    }

    /** The scripted reply to a (non-summarization) request. */
    SimulatedReply reply(CompletionRequest request) {
        String said = request.lastUserText();
        for (Rule rule : rules) {
            if (!rule.appliesTo(request)) {
                continue;
            }
            Matcher m = rule.when().matcher(said);
            if (m.find()) {
                int played = request.roundsPlayed();
                if (request.toolsOffered() && played < rule.rounds().size()) {
                    return SimulatedReply.calls(rule.rounds().get(played).stream()
                            .map(t -> new SimulatedReply.Call(t.tool(), substitute(t.args(), m).toString())).toList());
                }
                return SimulatedReply.text(substitute(rule.then(), m));
            }
        }
        return SimulatedReply.text(fallback.replace("$0", said));
    }

    /** {@code $n} replaced inside the string values only, so that a quote or backslash the user typed stays valid JSON. */
    private static JsonNode substitute(JsonNode node, Matcher m) {
        if (node.isTextual()) {
            return TextNode.valueOf(substitute(node.asText(), m));
        }
        if (node.isObject()) {
            ObjectNode out = SimulatorJson.MAPPER.createObjectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                out.set(field.getKey(), substitute(field.getValue(), m));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = SimulatorJson.MAPPER.createArrayNode();
            node.forEach(item -> out.add(substitute(item, m)));
            return out;
        }
        return node;
    }

    /** {@code $0} is the whole match, {@code $1}... its groups ("" for a group that did not take part). */
    private static String substitute(String template, Matcher m) {
        String out = template;
        for (int g = m.groupCount(); g >= 0; g--) { // $12 before $1
            out = out.replace("$" + g, m.group(g) == null ? "" : m.group(g));
        }
        return out;
    }
}
