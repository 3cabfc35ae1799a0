package io.conduit.llm.simulator;

import static io.conduit.llm.simulator.Requests.body;
import static io.conduit.llm.simulator.Requests.round;
import static io.conduit.llm.simulator.Requests.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The script's rules, rounds and substitutions; its checks; and the demo script the simulator ships. */
class SimulatorScriptTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static SimulatorScript script(String json) throws Exception {
        return SimulatorScript.parse(JSON.readTree(json), "test");
    }

    private static SimulatedReply reply(SimulatorScript script, boolean tools, String... messages) {
        return script.reply(CompletionRequest.parse(body(false, tools, messages)));
    }

    @Test
    void theFirstMatchingRuleWinsAndItsGroupsAreSubstituted() throws Exception {
        SimulatorScript script = script("""
                {"rules": [
                  {"when": "weather in (\\\\w+)", "rounds": [[{"tool": "forecast", "args": {"city": "$1", "days": 2, "tags": ["$1", "$0"]}}]],
                   "then": "Sunny in $1."},
                  {"when": "weather", "then": "Ask me about a city."}],
                 "default": "You said: $0"}""");

        SimulatedReply call = reply(script, true, user("What is the WEATHER in Oslo?"));
        assertThat(call.toolCalls()).containsExactly(new SimulatedReply.Call("forecast",
                "{\"city\":\"Oslo\",\"days\":2,\"tags\":[\"Oslo\",\"WEATHER in Oslo\"]}"));
        assertThat(reply(script, true, user("weather in Oslo"), round("c1", "forecast", "sun")).text()).isEqualTo("Sunny in Oslo.");
        assertThat(reply(script, false, user("weather in Oslo")).text()).as("no tools offered: the answer").isEqualTo("Sunny in Oslo.");
        assertThat(reply(script, true, user("weather?")).text()).isEqualTo("Ask me about a city.");
        assertThat(reply(script, true, user("hello")).text()).isEqualTo("You said: hello");
    }

    @Test
    void theLastUserMessageIsWhatMatches() throws Exception {
        SimulatorScript script = script("{\"rules\": [{\"when\": \"^first\", \"then\": \"matched\"}], \"default\": \"default\"}");
        assertThat(reply(script, false, user("first"), "{\"role\":\"assistant\",\"content\":\"ok\"}", user("second")).text()).isEqualTo("default");
        assertThat(reply(script, false, user("second"), user("first")).text()).isEqualTo("matched");
    }

    @Test
    void anEmptyToolResultDoesNotRepeatARound() throws Exception {
        SimulatorScript script = script("{\"rules\": [{\"when\": \"go\", \"rounds\": [[{\"tool\": \"t\"}]], \"then\": \"done\"}]}");
        assertThat(reply(script, true, user("go")).toolCalls()).extracting(SimulatedReply.Call::arguments).containsExactly("{}");
        assertThat(reply(script, true, user("go"), round("c1", "t", "")).text()).isEqualTo("done");
    }

    @Test
    void aRuleThatNamesToolsAppliesOnlyToARequestOfferingThemAll() throws Exception {
        SimulatorScript script = script("""
                {"rules": [
                  {"when": "hello", "offers": ["recall", "add_memory"], "then": "a model with add_memory"},
                  {"when": "hello", "offers": "recall", "rounds": [[{"tool": "recall", "args": {"key": "name"}}]], "then": "a model with recall"},
                  {"when": "hello", "then": "any model"}],
                 "default": "default"}""");

        assertThat(reply(script, true, user("hello")).toolCalls()).as("recall is offered, add_memory is not")
                .containsExactly(new SimulatedReply.Call("recall", "{\"key\":\"name\"}"));
        assertThat(reply(script, true, user("hello"), round("c1", "recall", "")).text()).isEqualTo("a model with recall");
        assertThat(reply(script, false, user("hello")).text()).as("no tools offered").isEqualTo("any model");
        // the in-process model's requests name their tools too
        CompletionRequest inProcess = CompletionRequest.of("m", List.of(new CompletionRequest.Message("user", "hello", List.of(), null)),
                List.of("add_memory", "recall"));
        assertThat(script.reply(inProcess).text()).isEqualTo("a model with add_memory");
        assertThatThrownBy(() -> script("{\"rules\": [{\"when\": \"x\", \"offers\": [1]}]}"))
                .hasMessage("The simulator script test: rules[0] is invalid: \"offers\" must be a tool name or a list of tool names");
    }

    @Test
    void mistakesInAScriptAreReportedWithTheirPlace() {
        assertThatThrownBy(() -> script("{\"rules\": [{\"then\": \"x\"}]}"))
                .hasMessage("The simulator script test: rules[0] is invalid: \"when\" (a regular expression) is required");
        assertThatThrownBy(() -> script("{\"rules\": [{\"when\": \"(unclosed\"}]}"))
                .hasMessageStartingWith("The simulator script test: rules[0] is invalid: \"when\" is not a valid regular expression");
        assertThatThrownBy(() -> script("{\"rules\": [{\"when\": \"x\", \"rounds\": [[{\"tool\": \"t\", \"args\": \"a=1\"}]]}]}"))
                .hasMessageContaining("rounds[0]: each call needs \"tool\"");
        assertThatThrownBy(() -> script("{\"rules\": [{\"when\": \"x\", \"rounds\": [[]]}]}"))
                .hasMessageContaining("rounds[0] must be a non-empty array");
        assertThatThrownBy(() -> SimulatorScript.load("/no/such/script.json"))
                .hasMessageStartingWith("The simulator script /no/such/script.json cannot be read");
    }

    @Test
    void theShippedDemoPlaysParallelCallsAndARepeatedCallWithTheAgentsTools() throws Exception {
        SimulatorScript shipped = SimulatorScript.load(null);
        Set<String> agentTools = Set.of("get_current_time", "recall", "remember");
        JsonNode rules = JSON.readTree(SimulatorScript.class.getClassLoader().getResource(SimulatorScript.CLASSPATH_SCRIPT)).get("rules");
        boolean parallel = false;
        boolean repeated = false;
        Set<String> used = new HashSet<>();
        for (JsonNode rule : rules) {
            if (rule.has("offers")) {
                continue; // a blueprint's conversation, played only for a request offering its tools
            }
            JsonNode rounds = rule.path("rounds");
            parallel |= rounds.size() >= 1 && rounds.get(0).size() == 2;
            repeated |= rounds.size() >= 2 && rounds.get(0).get(0).get("tool").equals(rounds.get(1).get(0).get("tool"));
            rounds.forEach(round -> round.forEach(call -> used.add(call.get("tool").asText())));
        }
        assertThat(parallel).as("a rule calls two tools in one round").isTrue();
        assertThat(repeated).as("a rule calls a tool again in its second round").isTrue();
        assertThat(agentTools).as("the rules for every graph play the default assistant's tools").containsAll(used);
        assertThat(used).containsAll(agentTools);

        assertThat(reply(shipped, true, user("Good morning!")).toolCalls()).extracting(SimulatedReply.Call::name)
                .containsExactly("get_current_time", "recall");
        assertThat(reply(shipped, true, user("Good morning!"), round("c1", "get_current_time", "09:00")).text()).startsWith("Good morning!");
        assertThat(reply(shipped, true, user("remember my favourite colour is green.")).toolCalls())
                .containsExactly(new SimulatedReply.Call("remember", "{\"key\":\"favourite colour\",\"value\":\"green\"}"));
        assertThat(reply(shipped, true, user("Remember that my colour is green.")).toolCalls())
                .containsExactly(new SimulatedReply.Call("remember", "{\"key\":\"colour\",\"value\":\"green\"}"));
        assertThat(reply(shipped, true, user("What's my favourite colour?")).toolCalls())
                .containsExactly(new SimulatedReply.Call("recall", "{\"key\":\"favourite colour\"}"));
        assertThat(reply(shipped, true, user("what time is it?")).toolCalls())
                .containsExactly(new SimulatedReply.Call("get_current_time", "{\"timezone\":\"UTC\"}"));
        List<SimulatedReply.Call> plan = reply(shipped, true, user("Please plan my week")).toolCalls();
        assertThat(plan).extracting(SimulatedReply.Call::name).containsExactly("get_current_time", "recall");
    }
}
