package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import java.util.List;

/**
 * {@code aggregate} and {@code filter_and_aggregate}: metrics over the whole file or per group, of every row or of
 * those meeting the conditions; groups sorted by the first metric, largest first.
 */
final class AggregateTool extends CsvTool {

    private final boolean filtered;

    AggregateTool(FileStore files, AnalystConfig config, boolean filtered) {
        super(files, config);
        this.filtered = filtered;
    }

    @Override
    public String name() {
        return filtered ? "filter_and_aggregate" : "aggregate";
    }

    @Override
    public String description() {
        return filtered
                ? "Metrics (count, sum, avg, min, max) over the rows of a CSV file that meet all the conditions, in all or per group (group_by)."
                : "Metrics (count, sum, avg, min, max) over every row of a CSV file, in all or per group (group_by).";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"file\":" + FILE + (filtered ? ",\"where\":" + Condition.SCHEMA : "")
                + ",\"group_by\":{\"type\":\"array\",\"maxItems\":3,\"items\":{\"type\":\"string\"}},\"metrics\":" + Metric.SCHEMA
                + ",\"limit\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"file\",\"metrics\"" + (filtered ? ",\"where\"" : "")
                + "],\"additionalProperties\":false}";
    }

    @Override
    ObjectNode scan(CsvRows rows, JsonNode arguments) {
        List<Condition> where = filtered ? Condition.parse(arguments.get("where"), rows) : List.of();
        JsonNode groupBy = arguments.get("group_by");
        int[] keys = groupBy == null || groupBy.isEmpty() ? new int[0] : Columns.indexes(rows, groupBy);
        Grouping grouping = new Grouping(keys, Columns.names(rows, keys), Metric.parse(arguments.get("metrics"), rows), config.maxGroups());
        for (CsvRows.Row row = rows.next(); row != null; row = rows.next()) {
            if (Condition.all(where, row.values())) {
                grouping.add(row.values());
            }
        }
        return grouping.result(limit(arguments));
    }
}
