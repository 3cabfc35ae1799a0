package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides what the simulator says, deterministically, from a small script:
 * <pre>
 * {"rules": [{"when": "regex on the last user message", "rounds": [[{"tool": "name", "args": {...}}, ...], ...],
 *             "then": "final answer, $1 for the regex's first group"}],
 *  "default": "answer when no rule matches; $0 is the user's message"}
 * </pre>
 * Round k is played when k rounds were played since the last user message (assistant messages with tool calls)
 * and the request offers tools; then the answer. A request whose system message asks to summarize gets a summary.
 */
final class SimulatorScript {

    private record Rule(Pattern when, List<List<SimulatedReply.Call>> rounds, String then) {
    }

    private final List<Rule> rules;
    private final String fallback;

    private SimulatorScript(List<Rule> rules, String fallback) {
        this.rules = rules;
        this.fallback = fallback;
    }

    static SimulatorScript load(String path) {
        try (InputStream in = path != null ? Files.newInputStream(Path.of(path))
                : SimulatorScript.class.getClassLoader().getResourceAsStream("simulator/script.json")) {
            if (in == null) {
                throw new IllegalStateException("the simulator script simulator/script.json is missing from the classpath");
            }
            return parse(JsonCodec.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new IllegalStateException("the simulator script " + (path != null ? path : "simulator/script.json") + " cannot be read: " + e.getMessage(), e);
        }
    }

    static SimulatorScript parse(JsonNode script) {
        List<Rule> rules = new ArrayList<>();
        for (JsonNode r : script.path("rules")) {
            List<List<SimulatedReply.Call>> rounds = new ArrayList<>();
            for (JsonNode round : r.path("rounds")) {
                List<SimulatedReply.Call> calls = new ArrayList<>();
                for (JsonNode c : round) {
                    calls.add(new SimulatedReply.Call(c.get("tool").asText(), c.path("args").isMissingNode() ? "{}" : c.get("args").toString()));
                }
                rounds.add(calls);
            }
            rules.add(new Rule(Pattern.compile(r.get("when").asText(), Pattern.CASE_INSENSITIVE), rounds, r.path("then").asText("")));
        }
        return new SimulatorScript(rules, script.path("default").asText("(simulated) You said: $0"));
    }

    /** @param messages the request's messages (OpenAI shape); {@code toolsOffered} whether it bound any tools */
    SimulatedReply reply(JsonNode messages, boolean toolsOffered, boolean reasoning) {
        String system = "";
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText();
            if (role.equals("system") && system.isEmpty()) {
                system = text(messages.get(i));
            } else if (role.equals("user")) {
                lastUser = i;
            }
        }
        String said = lastUser < 0 ? "" : text(messages.get(lastUser));
        String thinking = reasoning ? "Let me think about: " + firstWords(said, 8) : null;
        if (system.toLowerCase().contains("summar")) {
            return new SimulatedReply("Summary: " + firstWords(said, 24), List.of(), thinking);
        }
        int played = 0;
        for (int i = lastUser + 1; i < messages.size(); i++) {
            if (messages.get(i).path("role").asText().equals("assistant") && messages.get(i).path("tool_calls").size() > 0) {
                played++;
            }
        }
        for (Rule rule : rules) {
            Matcher m = rule.when().matcher(said);
            if (m.find()) {
                if (toolsOffered && played < rule.rounds().size()) {
                    List<SimulatedReply.Call> calls = rule.rounds().get(played).stream()
                            .map(c -> new SimulatedReply.Call(c.name(), substitute(c.arguments(), m))).toList();
                    return new SimulatedReply("", calls, thinking);
                }
                return new SimulatedReply(substitute(rule.then(), m), List.of(), thinking);
            }
        }
        return new SimulatedReply(fallback.replace("$0", said), List.of(), thinking);
    }

    private static String substitute(String template, Matcher m) {
        String out = template;
        for (int g = m.groupCount(); g >= 1; g--) {
            out = out.replace("$" + g, m.group(g) == null ? "" : m.group(g));
        }
        return out;
    }

    /** A message's text: a string, or the text parts of an array of content parts. */
    private static String text(JsonNode message) {
        JsonNode content = message.path("content");
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            sb.append(part.path("text").asText(""));
        }
        return sb.toString();
    }

    private static String firstWords(String text, int n) {
        String[] words = text.trim().split("\\s+");
        return String.join(" ", java.util.Arrays.copyOf(words, Math.min(n, words.length))).trim();
    }
}
