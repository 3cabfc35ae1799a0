package io.conduit.blueprints.analyst;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.DocCommands;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The analyst's demo as its page shows it ("Try it" in docs/blueprints/analyst.md), its curl commands run as written,
 * on the simulator's default script: the example CSV uploaded to a thread, two questions answered through the CSV
 * tools, whose results are the numbers worked out here from the same file.
 */
@QuarkusTest
class AnalystDemoTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @ConfigProperty(name = "conduit.simulator.script")
    Optional<String> script;

    @Test
    void thePagesDemoAnswersFromToolsOverTheUploadedCsv() throws Exception {
        assertThat(script).as("the default script, not a test's").isEmpty();
        // what the tools must find, worked out here from the example file
        Map<String, Long> unitsByRegion = new LinkedHashMap<>();
        double applePrices = 0;
        int apples = 0;
        List<String> rows = Files.readAllLines(Path.of("docs/blueprints/sales.csv"));
        assertThat(rows.get(0)).isEqualTo("order_id,region,product,units,price");
        for (String row : rows.subList(1, rows.size())) {
            String[] v = row.split(",");
            unitsByRegion.merge(v[1], Long.parseLong(v[3]), Long::sum);
            if (v[2].equals("apples")) {
                applePrices += Double.parseDouble(v[4]);
                apples++;
            }
        }

        DocCommands demo = DocCommands.of("docs/blueprints/analyst.md", "## Try it").replacing("analyst1", "analyst-demo-" + UUID.randomUUID());
        assertThat(demo.commands()).hasSize(4);
        demo.run(0, port);
        JsonNode file = json(demo.run(1, port));
        assertThat(file.get("csv").get("row_count").asInt()).isEqualTo(rows.size() - 1);

        JsonNode totals = json(demo.run(2, port));
        JsonNode aggregate = toolResult(totals, "aggregate");
        Map<String, Long> found = new LinkedHashMap<>();
        aggregate.get("groups").forEach(g -> found.put(g.get("region").asText(), g.get("sum(units)").asLong()));
        assertThat(found).isEqualTo(unitsByRegion);
        assertThat(answer(totals)).doesNotContain("You said").contains("units", "region");

        JsonNode average = json(demo.run(3, port));
        JsonNode filtered = toolResult(average, "filter_and_aggregate");
        assertThat(filtered.get("rows").asInt()).isEqualTo(apples);
        assertThat(filtered.get("groups").get(0).get("avg(price)").asDouble()).isCloseTo(applePrices / apples, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(answer(average)).doesNotContain("You said").contains("price", "apples");
        assertThat(average.get("turns").get(1).get("tools").toString()).isEqualTo("[\"filter_and_aggregate\"]");
    }

    private static JsonNode json(String body) throws Exception {
        return JsonCodec.MAPPER.readTree(body.strip());
    }

    /** The result of the turn's one call of {@code tool}, a tool message that is not an error. */
    private static JsonNode toolResult(JsonNode values, String tool) throws Exception {
        assertThat(values.has("__error__")).as("%s", values).isFalse();
        List<JsonNode> results = new ArrayList<>();
        JsonNode messages = values.get("messages");
        for (int i = messages.size() - 1; i >= 0 && !messages.get(i).get("type").asText().equals("human"); i--) {
            if (messages.get(i).get("type").asText().equals("tool")) {
                results.add(messages.get(i));
            }
        }
        assertThat(results).as("the turn's tool results").singleElement().satisfies(t -> {
            assertThat(t.get("name").asText()).isEqualTo(tool);
            assertThat(t.path("status").asText()).isNotEqualTo("error");
        });
        return JsonCodec.MAPPER.readTree(results.get(0).get("content").asText());
    }

    private static String answer(JsonNode values) {
        JsonNode messages = values.get("messages");
        return messages.get(messages.size() - 1).get("content").asText();
    }
}
