package io.conduit.blueprints.analyst;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.files.CsvInspection;
import io.conduit.files.FileStore;
import io.conduit.files.InMemoryFileStore;
import io.conduit.files.StoredFile;
import io.conduit.kernel.JsonCodec;
import io.conduit.tools.Redactor;
import io.conduit.tools.ToolExecutor;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each CSV tool through the analyst's tool box (schemas checked), on a small file whose answers are worked out by hand. */
class AnalystToolsTest {

    static final String CSV = """
            region,product,units,price,note
            north,apple,10,1.5,fresh
            south,apple,4,1.5,
            north,pear,6,2.25,Fresh pick
            east,pear,,2,bruised
            south,plum,8,3,fresh
            north,apple,2,1.5,old
            """;

    static final AnalystConfig CONFIG = new AnalystConfig() {
        public int maxIterations() {
            return 5;
        }

        public int maxRows() {
            return 3;
        }

        public int maxGroups() {
            return 100;
        }

        public Duration toolTimeout() {
            return Duration.ofSeconds(10);
        }

        public int recursionLimit() {
            return 40;
        }
    };

    static ToolBox box;
    static final ToolScope SCOPE = new ToolScope("t1", "ada", Map.of());

    @BeforeAll
    static void upload() throws Exception {
        FileStore store = new InMemoryFileStore();
        Path p = Files.createTempFile("sales", ".csv");
        Files.writeString(p, CSV);
        var summary = CsvInspection.inspect(new ByteArrayInputStream(CSV.getBytes(StandardCharsets.UTF_8)));
        store.put(new StoredFile("t1", "f1", "sales.csv", "text/csv", 0, Instant.now(), summary), p).await().indefinitely();
        box = AnalystTools.box(store, CONFIG, new ToolExecutor.Policy(Duration.ofSeconds(10), 1, Duration.ofMillis(10),
                Duration.ofMillis(10), 4, 16000), new Redactor(List.of(), List.of()));
    }

    @Test
    void loadRowsReturnsAWindowCappedByMaxRows() {
        JsonNode r = ok("load_rows", "{\"file\":\"sales.csv\",\"offset\":1,\"limit\":10,\"columns\":[\"region\",\"units\"]}");
        assertThat(r.toString()).isEqualTo("{\"columns\":[\"region\",\"units\"],\"rows\":[[\"south\",\"4\"],[\"north\",\"6\"],[\"east\",\"\"]],"
                + "\"offset\":1,\"file\":\"sales.csv\"}");
    }

    @Test
    void filterRowsComparesNumbersAsNumbersAndCountsAllMatches() {
        JsonNode r = ok("filter_rows", "{\"file\":\"f1\",\"where\":[{\"column\":\"price\",\"op\":\"lt\",\"value\":2.5},"
                + "{\"column\":\"units\",\"op\":\"gte\",\"value\":\"4\"}],\"columns\":[\"product\",\"units\"]}");
        assertThat(r.get("matched").asLong()).isEqualTo(3);
        assertThat(r.get("rows").toString()).isEqualTo("[[\"apple\",\"10\"],[\"apple\",\"4\"],[\"pear\",\"6\"]]");
        assertThat(r.get("truncated").asBoolean()).isFalse();
    }

    @Test
    void aggregateGroupsAndSortsByTheFirstMetric() {
        JsonNode r = ok("aggregate", "{\"file\":\"sales.csv\",\"group_by\":[\"product\"],\"metrics\":[{\"fn\":\"sum\",\"column\":\"units\"},"
                + "{\"fn\":\"count\"},{\"fn\":\"avg\",\"column\":\"price\"},{\"fn\":\"max\",\"column\":\"units\"}]}");
        assertThat(r.get("rows").asLong()).isEqualTo(6);
        assertThat(r.get("group_count").asInt()).isEqualTo(3);
        assertThat(r.get("groups").toString()).isEqualTo("[{\"product\":\"apple\",\"sum(units)\":16,\"count\":3,\"avg(price)\":1.5,\"max(units)\":10},"
                + "{\"product\":\"plum\",\"sum(units)\":8,\"count\":1,\"avg(price)\":3,\"max(units)\":8},"
                + "{\"product\":\"pear\",\"sum(units)\":6,\"count\":2,\"avg(price)\":2.125,\"max(units)\":6}]");
    }

    @Test
    void filterAndAggregateOverTheMatchingRowsOnly() {
        JsonNode r = ok("filter_and_aggregate", "{\"file\":\"sales.csv\",\"where\":[{\"column\":\"region\",\"op\":\"eq\",\"value\":\"north\"}],"
                + "\"metrics\":[{\"fn\":\"sum\",\"column\":\"units\"},{\"fn\":\"avg\",\"column\":\"units\"}]}");
        assertThat(r.get("rows").asLong()).isEqualTo(3);
        assertThat(r.get("groups").toString()).isEqualTo("[{\"sum(units)\":18,\"avg(units)\":6}]");
        JsonNode none = ok("filter_and_aggregate", "{\"file\":\"sales.csv\",\"where\":[{\"column\":\"region\",\"op\":\"eq\",\"value\":\"west\"}],"
                + "\"metrics\":[{\"fn\":\"count\"},{\"fn\":\"sum\",\"column\":\"units\"}]}");
        assertThat(none.get("groups").toString()).isEqualTo("[{\"count\":0,\"sum(units)\":null}]");
    }

    @Test
    void statisticsForNumbersAndText() {
        JsonNode r = ok("column_statistics", "{\"file\":\"sales.csv\",\"columns\":[\"units\",\"region\"]}");
        // units 10,4,6,8,2: mean 6, population variance (16+4+0+4+16)/5 = 8
        assertThat(r.get("columns").get("units").toString())
                .isEqualTo("{\"filled\":5,\"empty\":1,\"min\":2,\"max\":10,\"mean\":6,\"sum\":30,\"stddev\":2.828427125}");
        assertThat(r.get("columns").get("region").toString())
                .isEqualTo("{\"filled\":6,\"empty\":0,\"distinct\":\"3\",\"top\":{\"north\":3,\"south\":2,\"east\":1}}");
    }

    @Test
    void searchTextIsCaseInsensitiveAndNumbersTheRows() {
        JsonNode r = ok("search_text", "{\"file\":\"sales.csv\",\"query\":\"FRESH\",\"columns\":[\"note\"]}");
        assertThat(r.get("matched").asLong()).isEqualTo(3);
        assertThat(r.get("rows").findValuesAsText("row")).containsExactly("0", "2", "4");
    }

    @Test
    void compareGivesEachSubsetAndItsDifferenceFromTheFirst() {
        JsonNode r = ok("compare", "{\"file\":\"sales.csv\",\"subsets\":[{\"label\":\"north\",\"where\":[{\"column\":\"region\",\"op\":\"eq\",\"value\":\"north\"}]},"
                + "{\"label\":\"south\",\"where\":[{\"column\":\"region\",\"op\":\"eq\",\"value\":\"south\"}]}],"
                + "\"metrics\":[{\"fn\":\"sum\",\"column\":\"units\"},{\"fn\":\"avg\",\"column\":\"price\"}]}");
        assertThat(r.get("subsets").toString()).isEqualTo("[{\"label\":\"north\",\"rows\":3,\"metrics\":{\"sum(units)\":18,\"avg(price)\":1.75}},"
                + "{\"label\":\"south\",\"rows\":2,\"metrics\":{\"sum(units)\":12,\"avg(price)\":2.25},"
                + "\"difference_from_first\":{\"sum(units)\":-6,\"avg(price)\":0.5}}]");
    }

    @Test
    void badArgumentsAndUnknownNamesAreToolErrorsTheModelCanRead() {
        ToolOutcome schema = call("aggregate", "{\"file\":\"sales.csv\",\"metrics\":[{\"fn\":\"median\",\"column\":\"units\"}]}");
        assertThat(schema.error()).isTrue();
        assertThat(schema.content()).contains("invalid arguments for aggregate");
        ToolOutcome column = call("filter_rows", "{\"file\":\"sales.csv\",\"where\":[{\"column\":\"colour\",\"op\":\"eq\",\"value\":\"red\"}]}");
        assertThat(column.error()).isTrue();
        assertThat(column.content()).contains("no column \"colour\"; the columns are region, product, units, price, note");
        ToolOutcome file = call("load_rows", "{\"file\":\"other.csv\"}");
        assertThat(file.content()).contains("no CSV file named other.csv in this conversation; the files are sales.csv");
        // another thread's files are not found
        ToolOutcome elsewhere = box.call(new ToolCall("c", "load_rows", "{\"file\":\"sales.csv\"}"), new ToolScope("t2", "bob", Map.of()))
                .await().atMost(Duration.ofSeconds(10));
        assertThat(elsewhere.error()).isTrue();
        assertThat(elsewhere.content()).contains("none was uploaded");
    }

    private static JsonNode ok(String tool, String arguments) {
        ToolOutcome o = call(tool, arguments);
        assertThat(o.error()).as(o.content()).isFalse();
        try {
            return JsonCodec.MAPPER.readTree(o.content());
        } catch (Exception e) {
            throw new AssertionError(o.content(), e);
        }
    }

    private static ToolOutcome call(String tool, String arguments) {
        return box.call(new ToolCall("call-1", tool, arguments), SCOPE).await().atMost(Duration.ofSeconds(10));
    }
}
