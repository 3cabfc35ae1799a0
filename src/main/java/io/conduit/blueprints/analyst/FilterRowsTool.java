package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import io.conduit.kernel.JsonCodec;
import java.util.List;

/** {@code filter_rows}: the rows meeting every condition (the first {@code limit}), and how many met them in all. */
final class FilterRowsTool extends CsvTool {

    FilterRowsTool(FileStore files, AnalystConfig config) {
        super(files, config);
    }

    @Override
    public String name() {
        return "filter_rows";
    }

    @Override
    public String description() {
        return "Rows of a CSV file that meet all the conditions (eq, ne, gt, gte, lt, lte, contains): the first limit of them, and how many matched.";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"file\":" + FILE + ",\"where\":" + Condition.SCHEMA
                + ",\"columns\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"limit\":{\"type\":\"integer\",\"minimum\":1}},"
                + "\"required\":[\"file\",\"where\"],\"additionalProperties\":false}";
    }

    @Override
    ObjectNode scan(CsvRows rows, JsonNode arguments) {
        List<Condition> where = Condition.parse(arguments.get("where"), rows);
        int[] columns = Columns.indexes(rows, arguments.get("columns"));
        int limit = limit(arguments);
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        out.set("columns", JsonCodec.MAPPER.valueToTree(Columns.names(rows, columns)));
        ArrayNode list = out.putArray("rows");
        long matched = 0;
        for (CsvRows.Row row = rows.next(); row != null; row = rows.next()) {
            if (Condition.all(where, row.values())) {
                matched++;
                if (list.size() < limit) {
                    list.add(JsonCodec.MAPPER.valueToTree(Columns.pick(row.values(), columns)));
                }
            }
        }
        out.put("matched", matched);
        out.put("truncated", matched > list.size());
        return out;
    }
}
