package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import io.conduit.kernel.JsonCodec;
import java.util.List;

/**
 * {@code compare}: the same metrics over two to four subsets of one file (each its own conditions), side by side,
 * with each subset's difference from the first. One pass over the file feeds every subset.
 */
final class CompareTool extends CsvTool {

    CompareTool(FileStore files, AnalystConfig config) {
        super(files, config);
    }

    @Override
    public String name() {
        return "compare";
    }

    @Override
    public String description() {
        return "Compares subsets of a CSV file's rows (each a label and conditions): the same metrics for each, "
                + "and each subset's difference from the first.";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"file\":" + FILE + ",\"subsets\":{\"type\":\"array\",\"minItems\":2,\"maxItems\":4,"
                + "\"items\":{\"type\":\"object\",\"properties\":{\"label\":{\"type\":\"string\"},\"where\":" + Condition.SCHEMA + "},"
                + "\"required\":[\"label\",\"where\"],\"additionalProperties\":false}},\"metrics\":" + Metric.SCHEMA + "},"
                + "\"required\":[\"file\",\"subsets\",\"metrics\"],\"additionalProperties\":false}";
    }

    @Override
    ObjectNode scan(CsvRows rows, JsonNode arguments) {
        List<Metric> metrics = Metric.parse(arguments.get("metrics"), rows);
        JsonNode subsets = arguments.get("subsets");
        int n = subsets.size();
        @SuppressWarnings("unchecked")
        List<Condition>[] where = new List[n];
        Grouping[] totals = new Grouping[n];
        for (int i = 0; i < n; i++) {
            where[i] = Condition.parse(subsets.get(i).get("where"), rows);
            totals[i] = new Grouping(new int[0], List.of(), metrics, 1);
        }
        for (CsvRows.Row row = rows.next(); row != null; row = rows.next()) {
            for (int i = 0; i < n; i++) {
                if (Condition.all(where[i], row.values())) {
                    totals[i].add(row.values());
                }
            }
        }
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        ArrayNode list = out.putArray("subsets");
        ObjectNode first = null;
        for (int i = 0; i < n; i++) {
            ObjectNode values = (ObjectNode) totals[i].result(1).get("groups").get(0);
            ObjectNode s = list.addObject().put("label", subsets.get(i).get("label").asText()).put("rows", totals[i].rows());
            s.set("metrics", values);
            if (i == 0) {
                first = values;
            } else {
                ObjectNode diff = s.putObject("difference_from_first");
                for (Metric m : metrics) {
                    JsonNode a = first.get(m.name());
                    JsonNode b = values.get(m.name());
                    Results.put(diff, m.name(), a.isNull() || b.isNull() ? null : b.asDouble() - a.asDouble());
                }
            }
        }
        return out;
    }
}
