package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import io.conduit.kernel.JsonCodec;
import java.util.Locale;

/** {@code search_text}: rows where some cell (of the columns given, or any) contains the text, case-insensitively. */
final class SearchTool extends CsvTool {

    SearchTool(FileStore files, AnalystConfig config) {
        super(files, config);
    }

    @Override
    public String name() {
        return "search_text";
    }

    @Override
    public String description() {
        return "Rows of a CSV file where a cell contains the text (case-insensitive), in the given columns or any: "
                + "the first limit of them with their row numbers, and how many matched.";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"file\":" + FILE + ",\"query\":{\"type\":\"string\",\"minLength\":1},"
                + "\"columns\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"limit\":{\"type\":\"integer\",\"minimum\":1}},"
                + "\"required\":[\"file\",\"query\"],\"additionalProperties\":false}";
    }

    @Override
    ObjectNode scan(CsvRows rows, JsonNode arguments) {
        String query = arguments.get("query").asText().toLowerCase(Locale.ROOT);
        int[] searched = Columns.indexes(rows, arguments.get("columns"));
        int limit = limit(arguments);
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        out.set("columns", JsonCodec.MAPPER.valueToTree(rows.header()));
        ArrayNode list = out.putArray("rows");
        long matched = 0;
        long index = 0;
        for (CsvRows.Row row = rows.next(); row != null; row = rows.next(), index++) {
            for (int c : searched) {
                if (row.values()[c].toLowerCase(Locale.ROOT).contains(query)) {
                    matched++;
                    if (list.size() < limit) {
                        ObjectNode hit = list.addObject().put("row", index);
                        hit.set("values", JsonCodec.MAPPER.valueToTree(row.values()));
                    }
                    break;
                }
            }
        }
        out.put("matched", matched);
        out.put("truncated", matched > list.size());
        return out;
    }
}
